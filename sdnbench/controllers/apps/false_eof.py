"""A repair to os-ken 4.x over TLS on its native hub, applied by the launcher before os-ken's
OpenFlow server starts (docs/tls.md, "os-ken's false end of session").

os-ken gives each switch a receive thread (``Datapath._recv_loop``) and a send thread
(``_send_loop``) that use one ``ssl.SSLSocket`` at once. OpenSSL's ``SSL_get_error`` reads the
SSL object's state, and "no other OpenSSL function calls should appear in between" the I/O call
and it (SSL_get_error(3)). When the send thread's ``SSL_write`` lands between the receive thread's
``SSL_read`` (no whole record yet: it wants to read) and its ``SSL_get_error``, the write has reset
the object's "wants to read" state, and the read is reported as ``SSL_ERROR_SYSCALL`` with no errno.
Python calls that "EOF occurred in violation of protocol" (``SSLEOFError``), hides it as a
ragged EOF, and ``recv`` returns ``b''``. os-ken takes that for the switch's close and closes a
working session: about 1 engine run in 90 against ``osken:learning;tls`` here lost a session so,
and ``test_false_eof.py`` reproduces it without os-ken.

``TrueEofSSLSocket.recv`` asks the kernel before it believes such an EOF: if the peer has not shut
the connection (no ``POLLRDHUP``/``POLLHUP``/``POLLERR``), the EOF was false and the read is made
again. The session's state is sound: only the error code was wrong. A close_notify from the switch
(``b''`` without an error) and a true end of the connection are passed on as before. Nothing else
changes, so os-ken's I/O costs what it costs unrepaired. Serialising every OpenSSL call under a
lock also removes the race, but it cost 14% of os-ken's answers in latency mode (3 alternating
runs each), which ``tlscost`` would have charged to TLS.
"""

import select
import ssl

SHUT = select.POLLRDHUP | select.POLLHUP | select.POLLERR


class TrueEofSSLSocket(ssl.SSLSocket):
    """An ``ssl.SSLSocket`` whose ``recv`` returns ``b''`` only at a true end of the session."""

    false_eofs = 0          # read again, in this process (the launcher logs the first)

    def recv(self, buflen=1024, flags=0):
        while True:
            ragged, self.suppress_ragged_eofs = self.suppress_ragged_eofs, False
            try:
                return super().recv(buflen, flags)
            except ssl.SSLEOFError:
                if not ragged or self._peer_shut():
                    if ragged:
                        return b""
                    raise
                TrueEofSSLSocket.false_eofs += 1
            finally:
                self.suppress_ragged_eofs = ragged

    def _peer_shut(self) -> bool:
        poller = select.poll()
        poller.register(self.fileno(), select.POLLIN | select.POLLRDHUP)
        return any(events & SHUT for _, events in poller.poll(0))


def install() -> None:
    """Every TLS session an ``ssl.SSLContext`` makes from now on is a ``TrueEofSSLSocket``."""
    ssl.SSLContext.sslsocket_class = TrueEofSSLSocket
