"""The CPqD user switch in Mininet (``--switch user``): how its controller sessions are counted
(it has no OVS bridge to ask), and its datapath id width."""

import socket

from sdnbench.net.backends.mininet_network import _tcp_sessions_to


def test_tcp_sessions_to_counts_established_clients_of_one_address():
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        assert _tcp_sessions_to("127.0.0.1", port) == 0
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        accepted = [server.accept()[0] for _ in clients]
        try:
            assert _tcp_sessions_to("127.0.0.1", port) == 3      # the server's ends are not counted
            clients[0].close()
            accepted[0].close()
            assert _tcp_sessions_to("127.0.0.1", port) == 2
        finally:
            for s in clients + accepted:
                s.close()
