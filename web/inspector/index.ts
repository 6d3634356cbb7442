// What the rest of web/ uses of this feature; other folders import it only from here.
export {
  PacketChip,
  PacketInspector,
  RequestPacketChips,
  RingPackets,
  useInspectableProps,
} from './PacketInspector';
export { packetAtCursor, packetOf } from './packetJourney';
