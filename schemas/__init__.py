"""Typed records shared by every part of annals: log header, events, decisions, and the log file codec.

Schema evolution follows msgspec's rules, so that every log ever written stays readable:

* a new field goes at the end of its Struct and has a default;
* array-like Structs (events, decisions) only ever append fields, never reorder or remove them;
* an event kind keeps its integer tag forever; a retired kind keeps its class so old logs still decode;
* a change that cannot follow these rules bumps ``FORMAT_VERSION`` in ``schemas.logfile`` and the
  reader learns to read both versions;
* a new frame kind is such a change (an older reader would stop at it): format 2 added the judge (``J``) and
  signature (``S``) frames; format 1 logs still read, and are never given frames of a later format;
* a header field added at the end counts in the game id only when it differs from its default
  (``schemas.header.game_id_of``), so every id ever written re-derives.
"""
