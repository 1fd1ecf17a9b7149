package sdnbench.jvm;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar jvm-learning.jar PORT [HOST]}: an OpenFlow 1.0/1.3 learning switch listening
 * on HOST (127.0.0.1) with the JVM's own defaults, so on a dual-stack JVM the socket is an IPv6
 * one bound to ::ffff:127.0.0.1, as Floodlight's, ONOS's and OpenDaylight's are. SIGTERM stops it.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = args.length == 1 || args.length == 2 ? parsePort(args[0]) : -1;
        if (port < 0) {
            System.err.println("usage: java -jar jvm-learning.jar PORT [HOST]  (PORT 1-65535, HOST 127.0.0.1)");
            System.exit(1);
        }
        String host = args.length == 2 ? args[1] : "127.0.0.1";
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        LearningSwitch learning = new LearningSwitch();
        try {
            Channel server = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new OfFrameDecoder(), new Session(learning));
                    }
                })
                .bind(host, port).sync().channel();
            System.out.println("jvm-learning: listening on " + server.localAddress() + " (OpenFlow 1.0, 1.3)");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server, boss, workers)));
            server.closeFuture().sync();
        } catch (Exception e) {
            System.err.println("jvm-learning: cannot listen on " + host + ":" + port + ": " + e.getMessage());
            System.exit(1);
        } finally {
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    private static void stop(Channel server, EventLoopGroup boss, EventLoopGroup workers) {
        server.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
    }

    private static int parsePort(String s) {
        try {
            int p = Integer.parseInt(s);
            return p > 0 && p < 65536 ? p : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
