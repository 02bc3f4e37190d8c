"""``python -m annals.engine.native [build | clean | status]``: build, remove or name the compiled engine
(``engine.compiled``; ``make fast``, ``make pure``)."""

from annals.engine.compiled import main

if __name__ == "__main__":
    main()
