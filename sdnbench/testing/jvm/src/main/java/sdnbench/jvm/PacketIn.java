package sdnbench.jvm;

import io.netty.buffer.ByteBuf;

/**
 * What the learning switch reads of a PACKET_IN: its buffer id, its in_port and the frame (a
 * slice of the message, valid while the message is).
 *
 * <p>OpenFlow 1.0.0 §5.4.1: buffer_id at 8, in_port at 14, the frame at 18. OpenFlow 1.3.5
 * §7.4.1: buffer_id at 8, an OXM match at 24 (padded to 8 bytes) holding OXM_OF_IN_PORT, two
 * bytes of padding, then the frame.
 */
record PacketIn(int bufferId, int inPort, ByteBuf frame) {
    private static final int OXM_IN_PORT = 0x80000004;   // class OPENFLOW_BASIC, field 0, 4 bytes

    /** The packet-in of {@code msg} (one whole message), or null when its lengths do not hold. */
    static PacketIn parse(ByteBuf msg, byte version) {
        int len = msg.readableBytes();
        if (version == Of.V10) {
            return len < 18 ? null : new PacketIn(msg.getInt(8), msg.getUnsignedShort(14), msg.slice(18, len - 18));
        }
        if (len < 24 + 4) {
            return null;
        }
        int matchLen = msg.getUnsignedShort(26);
        int dataAt = 24 + (matchLen + 7) / 8 * 8 + 2;
        if (matchLen < 4 || dataAt > len) {
            return null;
        }
        Integer inPort = inPort13(msg, 24 + 4, 24 + matchLen);
        return inPort == null ? null : new PacketIn(msg.getInt(8), inPort, msg.slice(dataAt, len - dataAt));
    }

    /** OXM_OF_IN_PORT among the OXM fields in [from, to), or null when it is not there whole. */
    private static Integer inPort13(ByteBuf msg, int from, int to) {
        int at = from;
        while (at + 4 <= to) {
            int oxm = msg.getInt(at);
            int next = at + 4 + (oxm & 0xff);
            if (next > to) {
                return null;
            }
            if (oxm == OXM_IN_PORT) {
                return msg.getInt(at + 4);
            }
            at = next;
        }
        return null;
    }

    /** The frame's destination MAC as 48 bits, or -1 when the frame is shorter than two MACs. */
    long dst() {
        return frame.readableBytes() < 12 ? -1 : frame.getUnsignedMedium(0) * 0x1000000L + frame.getUnsignedMedium(3);
    }

    /** The frame's source MAC as 48 bits, or -1 when the frame is shorter than two MACs. */
    long src() {
        return frame.readableBytes() < 12 ? -1 : frame.getUnsignedMedium(6) * 0x1000000L + frame.getUnsignedMedium(9);
    }
}
