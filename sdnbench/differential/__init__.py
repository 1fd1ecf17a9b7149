"""Differential conformance: the same controller, topology and stimuli on Mininet + Open vSwitch
(userspace datapath) and on the engine's emulated network, at OpenFlow 1.0 and 1.3; what the
controller received and sent and the flow tables after settling, normalised and compared
(docs/conformance.md). The command is ``sdnbench conformance`` (``commands/conformance.py``).

- ``stimuli``: the shared timeline (connect, frames, link, hosts, restart, echo-silence), the
  engine's stream and announcement frames, and its keep-alive set as Mininet sets OVS's;
- ``clock``: where the timeline starts on both sides (the last switch's FEATURES_REPLY, as
  captured) and when the stimulus reached the controller, read from the capture (pure);
- ``control``: the side's controller, which ``restart`` kills and relaunches on its port and
  ``echo-silence`` stops and continues;
- ``capture``: tcpdump on the controller's port, the pcap cut into OpenFlow messages (pure);
- ``flowdump``: flow tables over OpenFlow (OVS: management socket; engine: a second controller);
- ``parse`` / ``osken_parse``: os-ken's parser, run in the os-ken environment (one process for
  the command); ``tablefeatures``: a 1.3 TABLE_FEATURES reply read from the wire instead;
- ``sides``: one side's run (launch, capture, network, stimulus, dump); ``normalise``: what
  compares, and the comparison (pure); ``harness``: the matrix (each cell: OVS A, the engine,
  OVS B), each cell kept small; ``report``: each cell's verdict, the table (pure);
- ``pooled``: the pooled connect-phase floor, an item of the connect phase only judged against
  the connect phases of every OVS run of the same controller and version (pure);
- ``crosspool``: pooling across commands (``--pool``), each cell judged again with every
  comparable OVS run of several ``-o`` files, the rest set apart (pure); ``poolfiles``: reads
  those files and their ``--views``;
- ``noise``: the noise floor, what OVS A and B differ in (items, fields) (pure); ``evidence``:
  the documented properties of the test bed that explain a difference, each with its test
  (``test_environment.py``) (pure); ``classify``: each difference labelled noise, evidence or
  unexplained, and the cell's verdict (pure);
- ``tablemiss``: the scripted 1.3 controller of issue 27 (table-miss entries sized by the
  announced table count, then LLDP), a known answer and a controller of the matrix, given as a
  ``cmd:`` spec (``python -m sdnbench.testing.peers.tablemiss --spec``);
- ``linkpath``: the link path of issue 31 (a frame out of one switch's port, over a link, through
  the peer's flow table) on two OVS bridges on a veth pair and on two emulated switches.

``tablemiss`` and ``linkpath`` use the test peers (``sdnbench.testing``) and stay in the source
tree (not installed); nothing the command imports uses them.
"""
