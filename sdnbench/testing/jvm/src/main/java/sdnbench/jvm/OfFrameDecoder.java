package sdnbench.jvm;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts the byte stream into whole OpenFlow messages: peek the 8-byte header, wait for
 * {@code length} bytes, pass them on as one buffer (index 0 is the header).
 *
 * <p>A length below the header's 8 bytes cannot be skipped (nothing says where the next message
 * starts), so the session is closed, as Open vSwitch does.
 */
final class OfFrameDecoder extends ByteToMessageDecoder {
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= Of.HEADER_LEN) {
            int len = in.getUnsignedShort(in.readerIndex() + 2);
            if (len < Of.HEADER_LEN) {
                in.skipBytes(in.readableBytes());
                ctx.close();
                return;
            }
            if (in.readableBytes() < len) {
                return;
            }
            out.add(in.readRetainedSlice(len));
        }
    }
}
