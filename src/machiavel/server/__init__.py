"""The machiavel server: tables, seats, bots and storage behind an HTTP and WebSocket API."""

from machiavel.server.app import create_app

__all__ = ["create_app"]
