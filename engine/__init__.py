"""The deterministic game engine: rules decide and emit events; one reducer per game applies them."""

ENGINE_VERSION = "0.1.0"
