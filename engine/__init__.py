"""The deterministic game engine: rules decide and emit events; one reducer per game applies them."""

from annals.engine import compiled as _compiled

ENGINE_VERSION = "0.1.0"

_compiled.install()  # the compiled build of the hot modules when it is built and current (engine.compiled)
