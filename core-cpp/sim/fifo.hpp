// A first-in first-out queue in one ring buffer whose size is a power of two (it doubles when
// full): what std::deque offers the model's hot queues (DMA channels, NIC queues, frames on a
// wire), without deque's block allocation and two-level indexing on every access.
#pragma once
#include <cstddef>
#include <memory>
#include <utility>

namespace nicsim {

template <class T>
class Fifo {
 public:
  bool empty() const { return head_ == tail_; }
  std::size_t size() const { return tail_ - head_; }
  T& front() { return slots_[head_ & mask_]; }
  const T& front() const { return slots_[head_ & mask_]; }
  T& back() { return slots_[(tail_ - 1) & mask_]; }
  const T& back() const { return slots_[(tail_ - 1) & mask_]; }
  // The i-th element from the front.
  T& operator[](std::size_t i) { return slots_[(head_ + i) & mask_]; }
  const T& operator[](std::size_t i) const { return slots_[(head_ + i) & mask_]; }
  void push_back(const T& v) {
    if (size() == capacity_) grow();
    slots_[tail_++ & mask_] = v;
  }
  void pop_front() { ++head_; }
  void clear() { head_ = tail_ = 0; }

 private:
  // Out of line and rare: push_back stays small enough to inline everywhere.
  [[gnu::noinline]] void grow() {
    const std::size_t n = capacity_ == 0 ? 8 : 2 * capacity_;
    std::unique_ptr<T[]> slots(new T[n]);
    for (std::size_t i = 0; i < capacity_; ++i) slots[i] = std::move((*this)[i]);
    tail_ = capacity_;
    head_ = 0;
    slots_ = std::move(slots);
    capacity_ = n;
    mask_ = n - 1;
  }

  std::unique_ptr<T[]> slots_;
  std::size_t capacity_ = 0, mask_ = 0;
  std::size_t head_ = 0, tail_ = 0;  // free-running; slot = index & mask_
};

}  // namespace nicsim
