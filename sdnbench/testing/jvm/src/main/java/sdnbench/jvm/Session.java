package sdnbench.jvm;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.util.Map;

/**
 * One switch's session: HELLO with a version bitmap (1.0 and 1.3), FEATURES_REQUEST, on 1.3 the
 * table-miss entry, echo replies, and every PACKET_IN answered by the learning switch (a
 * FLOW_MOD naming its buffer, plus a PACKET_OUT of the frame when it was not buffered; or a
 * flooding PACKET_OUT).
 *
 * <p>Replies are written as messages are read and flushed once per read, so a batch of
 * packet-ins is answered in one write. Reading stops while the switch is not reading our replies.
 */
final class Session extends SimpleChannelInboundHandler<ByteBuf> {
    private final LearningSwitch learning;
    private byte version;                       // 0 until the HELLOs agreed
    private Map<Long, Integer> macs = LearningSwitch.unbound();
    private int xid;

    Session(LearningSwitch learning) {
        this.learning = learning;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.writeAndFlush(Of.hello(ctx.alloc(), ++xid));
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
        ByteBufAllocator alloc = ctx.alloc();
        int type = msg.getUnsignedByte(1);
        if (type == Of.HELLO) {
            onHello(ctx, msg);
        } else if (version == 0) {
            return;                             // nothing counts before the HELLOs agree
        } else if (type == Of.ECHO_REQUEST) {
            ctx.write(Of.echoReply(alloc, msg));
        } else if (msg.getByte(0) != version) {
            ctx.write(Of.error(alloc, version, Of.ET_BAD_REQUEST, Of.BRC_BAD_VERSION, msg));
        } else if (type == Of.FEATURES_REPLY) {
            onFeatures(ctx, msg);
        } else if (type == Of.PACKET_IN) {
            onPacketIn(ctx, msg);
        } else if (type > Of.maxType(version)) {
            ctx.write(Of.error(alloc, version, Of.ET_BAD_REQUEST, Of.BRC_BAD_TYPE, msg));
        }
    }

    private void onHello(ChannelHandlerContext ctx, ByteBuf msg) {
        if (version != 0) {
            return;
        }
        byte agreed = Hello.negotiate(msg);
        if (agreed == 0) {
            byte v = (byte) Math.min(msg.getUnsignedByte(0), Of.V13);
            ctx.writeAndFlush(Of.error(ctx.alloc(), v, Of.ET_HELLO_FAILED, Of.HFC_INCOMPATIBLE, msg))
                .addListener(f -> ctx.close());
            return;
        }
        version = agreed;
        ctx.write(Of.featuresRequest(ctx.alloc(), version, ++xid));
    }

    private void onFeatures(ChannelHandlerContext ctx, ByteBuf msg) {
        if (msg.readableBytes() < 16) {
            ctx.write(Of.error(ctx.alloc(), version, Of.ET_BAD_REQUEST, Of.BRC_BAD_LEN, msg));
            return;
        }
        long dpid = msg.getLong(8);
        Map<Long, Integer> table = learning.table(dpid);
        table.putAll(macs);
        macs = table;
        System.out.printf("jvm-learning: switch %016x on OpenFlow %s from %s%n", dpid,
            version == Of.V10 ? "1.0" : "1.3", ctx.channel().remoteAddress());
        if (version == Of.V13) {
            ctx.write(Of.tableMiss13(ctx.alloc(), ++xid));
        }
    }

    private void onPacketIn(ChannelHandlerContext ctx, ByteBuf msg) {
        PacketIn p = PacketIn.parse(msg, version);
        if (p == null) {
            ctx.write(Of.error(ctx.alloc(), version, Of.ET_BAD_REQUEST, Of.BRC_BAD_LEN, msg));
            return;
        }
        Integer out = LearningSwitch.decide(macs, p);
        if (out == null) {
            ctx.write(Of.packetOut(ctx.alloc(), version, ++xid, p, Of.flood(version)));
            return;
        }
        ctx.write(Of.learnedFlow(ctx.alloc(), version, ++xid, p, out));
        if (p.bufferId() == Of.NO_BUFFER) {
            ctx.write(Of.packetOut(ctx.alloc(), version, ++xid, p, out));
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(ctx.channel().isWritable());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();                            // a reset switch is no news; the session ends
    }
}
