"""The game server (``annals serve``): tables over WebSocket, each seat only its own view, logs written live."""
