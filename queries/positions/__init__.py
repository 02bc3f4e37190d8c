"""Positions: any coordinate of a game rebuilt, from its log (the reducer folded) or from the database (the
``position()`` macro), omniscient or as one seat or a spectator saw it (``viewstate``); a game's log read back from
the database when its file is gone (``gamelog``, ``storedlog``); position files, their field domains and checks
(``files``, ``domains``, ``checks``); where a game can stop and be started from (``stops``, ``midway``).

May import ``schemas``, ``engine``, ``ingest`` and ``queries.cards``; nothing else of ``queries``.
"""
