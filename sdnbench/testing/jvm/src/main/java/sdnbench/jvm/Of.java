package sdnbench.jvm;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The OpenFlow 1.0 and 1.3 messages this controller sends, written into netty buffers.
 *
 * <p>Numbers from the specifications: OpenFlow 1.0.0 (wire version 0x01) §5, OpenFlow 1.3.5
 * (0x04) §7. Every encoder writes the header with the final length, so a message is complete when
 * it returns. Ports are ints: 16 bits on 1.0, 32 on 1.3.
 */
final class Of {
    static final byte V10 = 0x01;
    static final byte V13 = 0x04;
    static final int HEADER_LEN = 8;

    // message types (the same numbers on 1.0 and 1.3 for these)
    static final int HELLO = 0;
    static final int ERROR = 1;
    static final int ECHO_REQUEST = 2;
    static final int ECHO_REPLY = 3;
    static final int FEATURES_REQUEST = 5;
    static final int FEATURES_REPLY = 6;
    static final int PACKET_IN = 10;
    static final int PACKET_OUT = 13;
    static final int FLOW_MOD = 14;

    /** The last message type each version defines (1.0: QUEUE_GET_CONFIG_REPLY, 1.3: METER_MOD). */
    static int maxType(byte version) {
        return version == V10 ? 21 : 29;
    }

    // errors: OFPET_HELLO_FAILED/OFPHFC_INCOMPATIBLE, OFPET_BAD_REQUEST/{BAD_VERSION, BAD_TYPE, BAD_LEN}
    static final int ET_HELLO_FAILED = 0;
    static final int ET_BAD_REQUEST = 1;
    static final int HFC_INCOMPATIBLE = 0;
    static final int BRC_BAD_VERSION = 0;
    static final int BRC_BAD_TYPE = 1;
    static final int BRC_BAD_LEN = 6;

    static final int NO_BUFFER = 0xffffffff;
    static final int OFPHET_VERSIONBITMAP = 1;

    static final int IDLE_TIMEOUT_S = 10;
    static final int LEARNED_PRIORITY = 1;

    private Of() {
    }

    static int flood(byte version) {
        return version == V10 ? 0xfffb : 0xfffffffb;
    }

    static int controller(byte version) {
        return version == V10 ? 0xfffd : 0xfffffffd;
    }

    private static ByteBuf header(ByteBufAllocator alloc, byte version, int type, int xid, int len) {
        ByteBuf b = alloc.buffer(len);
        b.writeByte(version).writeByte(type).writeShort(len).writeInt(xid);
        return b;
    }

    /** HELLO 1.3 with a version bitmap of 1.0 and 1.3 (OpenFlow 1.3.5 §7.5.1). */
    static ByteBuf hello(ByteBufAllocator alloc, int xid) {
        ByteBuf b = header(alloc, V13, HELLO, xid, 16);
        return b.writeShort(OFPHET_VERSIONBITMAP).writeShort(8).writeInt((1 << V10) | (1 << V13));
    }

    static ByteBuf featuresRequest(ByteBufAllocator alloc, byte version, int xid) {
        return header(alloc, version, FEATURES_REQUEST, xid, HEADER_LEN);
    }

    /** ECHO_REPLY with the request's version, xid and payload. */
    static ByteBuf echoReply(ByteBufAllocator alloc, ByteBuf request) {
        int len = request.readableBytes();
        ByteBuf b = header(alloc, request.getByte(0), ECHO_REPLY, request.getInt(4), len);
        return b.writeBytes(request, HEADER_LEN, len - HEADER_LEN);
    }

    /** ERROR carrying at most the first 64 bytes of the offending message. */
    static ByteBuf error(ByteBufAllocator alloc, byte version, int type, int code, ByteBuf offending) {
        int data = Math.min(64, offending.readableBytes());
        ByteBuf b = header(alloc, version, ERROR, offending.getInt(4), HEADER_LEN + 4 + data);
        return b.writeShort(type).writeShort(code).writeBytes(offending, 0, data);
    }

    /** The 1.3 table-miss entry: priority 0, match all, apply-actions output CONTROLLER, no buffer. */
    static ByteBuf tableMiss13(ByteBufAllocator alloc, int xid) {
        ByteBuf b = header(alloc, V13, FLOW_MOD, xid, 80);
        flowMod13Body(b, 0, 0, NO_BUFFER);
        b.writeShort(1).writeShort(4).writeInt(0);           // OFPMT_OXM, no fields, padded to 8
        applyOutput13(b, controller(V13), 0xffff);            // max_len OFPCML_NO_BUFFER
        return b;
    }

    /** FLOW_MOD ADD: in_port, dl_dst and dl_src to {@code outPort}, naming {@code bufferId}. */
    static ByteBuf learnedFlow(ByteBufAllocator alloc, byte version, int xid, PacketIn p, int outPort) {
        if (version == V10) {
            ByteBuf b = header(alloc, V10, FLOW_MOD, xid, 80);
            // OFPFW_ALL (22 bits) less IN_PORT (1 << 0), DL_SRC (1 << 2), DL_DST (1 << 3)
            b.writeInt(0x3fffff & ~0xd).writeShort(p.inPort()).writeBytes(p.frame(), 6, 6)
                .writeBytes(p.frame(), 0, 6).writeZero(22);
            b.writeLong(0).writeShort(0).writeShort(IDLE_TIMEOUT_S).writeShort(0)
                .writeShort(LEARNED_PRIORITY).writeInt(p.bufferId()).writeShort(0xffff).writeShort(0);
            return b.writeShort(0).writeShort(8).writeShort(outPort).writeShort(0);
        }
        ByteBuf b = header(alloc, V13, FLOW_MOD, xid, 48 + 32 + 24);
        flowMod13Body(b, IDLE_TIMEOUT_S, LEARNED_PRIORITY, p.bufferId());
        b.writeShort(1).writeShort(32);                       // OFPMT_OXM, 4 + 8 + 10 + 10 bytes
        b.writeInt(0x80000004).writeInt(p.inPort());          // OXM_OF_IN_PORT
        b.writeInt(0x80000606).writeBytes(p.frame(), 0, 6);   // OXM_OF_ETH_DST
        b.writeInt(0x80000806).writeBytes(p.frame(), 6, 6);   // OXM_OF_ETH_SRC
        applyOutput13(b, outPort, 0);
        return b;
    }

    private static void flowMod13Body(ByteBuf b, int idle, int priority, int bufferId) {
        b.writeLong(0).writeLong(0).writeByte(0).writeByte(0);  // cookie, mask, table 0, ADD
        b.writeShort(idle).writeShort(0).writeShort(priority).writeInt(bufferId);
        b.writeInt(0xffffffff).writeInt(0xffffffff).writeShort(0).writeShort(0);  // out_port/group ANY
    }

    private static void applyOutput13(ByteBuf b, int port, int maxLen) {
        b.writeShort(4).writeShort(24).writeInt(0);          // OFPIT_APPLY_ACTIONS
        b.writeShort(0).writeShort(16).writeInt(port).writeShort(maxLen).writeZero(6);
    }

    /**
     * PACKET_OUT of the packet-in's buffer out of {@code port}; when the switch did not buffer it,
     * the frame itself goes with it.
     */
    static ByteBuf packetOut(ByteBufAllocator alloc, byte version, int xid, PacketIn p, int port) {
        boolean withData = p.bufferId() == NO_BUFFER;
        int data = withData ? p.frame().readableBytes() : 0;
        if (version == V10) {
            ByteBuf b = header(alloc, V10, PACKET_OUT, xid, 16 + 8 + data);
            b.writeInt(p.bufferId()).writeShort(p.inPort()).writeShort(8);
            b.writeShort(0).writeShort(8).writeShort(port).writeShort(0);
            return withData ? b.writeBytes(p.frame(), 0, data) : b;
        }
        ByteBuf b = header(alloc, V13, PACKET_OUT, xid, 24 + 16 + data);
        b.writeInt(p.bufferId()).writeInt(p.inPort()).writeShort(16).writeZero(6);
        b.writeShort(0).writeShort(16).writeInt(port).writeShort(0).writeZero(6);
        return withData ? b.writeBytes(p.frame(), 0, data) : b;
    }
}
