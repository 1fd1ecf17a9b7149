package sdnbench.jvm;

import io.netty.buffer.ByteBuf;

/** Version negotiation from the switch's HELLO (OpenFlow 1.3.5 §6.3.1), among 1.0 and 1.3. */
final class Hello {
    private Hello() {
    }

    /**
     * The version both sides speak: with a version bitmap, the highest of 1.0 and 1.3 in it;
     * without, the smaller of the switch's version and 1.3, if that is 1.0 or 1.3. 0: none.
     */
    static byte negotiate(ByteBuf hello) {
        Integer bitmap = bitmap(hello);
        if (bitmap != null) {
            return (bitmap & (1 << Of.V13)) != 0 ? Of.V13 : (bitmap & (1 << Of.V10)) != 0 ? Of.V10 : 0;
        }
        int v = Math.min(hello.getUnsignedByte(0), Of.V13);
        return v == Of.V13 || v == Of.V10 ? (byte) v : 0;
    }

    /** The first 32 bits of an OFPHET_VERSIONBITMAP element (versions 0..31), or null. */
    private static Integer bitmap(ByteBuf hello) {
        int len = hello.readableBytes();
        int at = Of.HEADER_LEN;
        while (at + 4 <= len) {
            int type = hello.getUnsignedShort(at);
            int elen = hello.getUnsignedShort(at + 2);
            if (elen < 4 || at + elen > len) {
                return null;
            }
            if (type == Of.OFPHET_VERSIONBITMAP && elen >= 8) {
                return hello.getInt(at + 4);
            }
            at += (elen + 7) / 8 * 8;
        }
        return null;
    }
}
