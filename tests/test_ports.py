"""The test ports: outside the ephemeral range, never handed out twice, bus ports included."""

from __future__ import annotations

import socket

from tests.ports import _ephemeral_range, free_port


def test_ports_lie_outside_the_ephemeral_range_and_are_never_repeated() -> None:
    low, high = _ephemeral_range()
    ports = [free_port() for _ in range(50)]
    assert len(set(ports)) == 50
    assert not any(low <= p <= high for p in ports)


def test_a_cluster_node_gets_a_bus_port_outside_the_range_too() -> None:
    low, high = _ephemeral_range()
    ports = [free_port(bus_offset=10_000) for _ in range(10)]
    taken = ports + [p + 10_000 for p in ports]
    assert len(set(taken)) == 20 and all(p < 65_536 for p in taken)
    assert not any(low <= p <= high for p in taken)
    # Neither a later plain port nor a later pair reuses a bus port.
    assert not {free_port() for _ in range(20)} & set(taken)


def test_a_port_handed_out_can_be_listened_on() -> None:
    port = free_port(bus_offset=10_000)
    for candidate in (port, port + 10_000):
        with socket.socket() as server:
            server.bind(("127.0.0.1", candidate))
            server.listen()
