"""Referee rules core: cards, seeded dealing, the common game surface and one module per game.

Knows nothing of gRPC or I/O. Games register themselves in :mod:`referee.core.registry`.
"""
