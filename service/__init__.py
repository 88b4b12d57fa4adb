"""Referee gRPC service: servicers, state-token sealing, error mapping, server lifecycle, CLI.

Translates protobuf <-> :mod:`referee.core` objects and delegates; no game rules live here.
"""
