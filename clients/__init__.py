"""Clients of the live-play protocol (``schemas.protocol``): the terminal client, and the browser client that
``annals serve`` serves as static files."""
