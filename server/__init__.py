"""Guandan Online game server: WebSocket + HTTP on one port, Redis as the only truth."""
