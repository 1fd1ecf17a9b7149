package sdnbench.jvm;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The learning logic of Ryu's simple_switch and Floodlight's LearningSwitch: per datapath, a
 * source MAC is learned on the port its packet came in on; a frame to a learned unicast MAC is
 * forwarded there (and a flow installed), any other is flooded.
 *
 * <p>A datapath's table is shared by its sessions (a switch that reconnects keeps what was
 * learned), and sessions run on several event-loop threads: the maps are concurrent.
 */
final class LearningSwitch {
    private final Map<Long, Map<Long, Integer>> tables = new ConcurrentHashMap<>();

    /** The MAC table of datapath {@code dpid}. */
    Map<Long, Integer> table(long dpid) {
        return tables.computeIfAbsent(dpid, d -> new ConcurrentHashMap<>());
    }

    /** A fresh table for a session whose datapath is not known yet. */
    static Map<Long, Integer> unbound() {
        return new ConcurrentHashMap<>();
    }

    /**
     * Learns from {@code p} into {@code macs} and returns the port its frame goes out of, or null
     * to flood it (destination unknown, multicast or broadcast, or a frame too short to tell).
     */
    static Integer decide(Map<Long, Integer> macs, PacketIn p) {
        long src = p.src();
        long dst = p.dst();
        if (src >= 0 && !multicast(src)) {
            macs.put(src, p.inPort());
        }
        return dst < 0 || multicast(dst) ? null : macs.get(dst);
    }

    private static boolean multicast(long mac) {
        return (mac & (1L << 40)) != 0;   // the I/G bit: the low bit of the first byte
    }
}
