"""Which archive of the lake holds each game id: the driver's plan, so that a lake of archives keeps one game per
id as one local ingest of them does (``ingest.claims``).

A game id in two archives is a question about two tasks that run apart. The driver answers it from the archives'
indexes (each game's id and chain digest), going through the archives in the lake's order as ingest goes through
the logs: the first log of an id holds it; a later one with the same digest is a copy, skipped; one with another
digest puts the id in conflict: neither is kept, each is quarantined (``ConflictingLogsError`` naming the others),
and so is every later log of the id. Each task is then given its part of the plan (``Plan``): the ids earlier
archives hold, their copies and the ids in conflict, which its ingest starts from as a database that had stored
them would (``claims_of``), and its own ids a later archive withdraws (``ingest.tables.ingest_tables``: numbered,
then withdrawn, as ingest numbers a game before a later log takes it out, so the gap is where ingest leaves one).

A damaged game holds nothing (ingest quarantines it before it claims its id); a task's marker names them
(``damaged``), and the driver plans again with them left out. Each marker keeps the digest of the plan it was
exported with, so an archive whose part of the plan changes (a later archive with one of its ids, a damaged game
found) is exported again, as one whose first game number moves is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from annals.ingest.claims import Claim, Claims, Copy
from annals.schemas.archive import ref

Plan = dict[str, Any]  # held: {id: [digest, file]}, copies: {id: [file]}, conflicted: {id: [file]}, withdrawn: [id]


def empty_plan() -> Plan:
    return {"held": {}, "copies": {}, "conflicted": {}, "withdrawn": []}


def plan_digest(plan: Plan) -> str:
    """The digest a marker keeps of the plan its archive was exported with."""
    return hashlib.blake2b(json.dumps(plan, sort_keys=True).encode(), digest_size=16).hexdigest()


EMPTY_PLAN_DIGEST = plan_digest(empty_plan())  # a marker from before plans: exported with none


class Holdings(NamedTuple):
    """An archive as the plan sees it: its name, path, and its games' ids and chain digests (the first member of
    an id: the one ``ARCHIVE#GAME_ID`` reads), damaged ones left out."""

    name: str
    path: str
    games: dict[str, str]


class Planned(NamedTuple):
    plan: Plan
    numbers: int  # the game numbers the archive takes: its games that hold their id (some withdrawn later)


def plan_claims(archives: Sequence[Holdings]) -> dict[str, Planned]:
    """Each archive's part of the plan, by name, for ``archives`` in the lake's order (see the module docstring);
    the same steps as ``ingest.loader._Run.place`` over the ids and digests alone."""
    holder: dict[str, tuple[str, str, str]] = {}  # id -> digest, file, archive name
    copies: dict[str, list[str]] = {}
    conflicted: dict[str, list[str]] = {}
    plans: dict[str, Plan] = {}
    numbers: dict[str, int] = {}
    for archive in archives:
        plan = plans[archive.name] = empty_plan()
        numbers[archive.name] = 0
        for gid in sorted(archive.games):  # the order its task reads them (``collect`` sorts the references)
            digest, file = archive.games[gid], ref(archive.path, gid)
            if gid in conflicted:
                plan["conflicted"][gid] = list(conflicted[gid])
                if file not in conflicted[gid]:
                    conflicted[gid].append(file)
            elif gid in holder:
                held_digest, held_file, owner = holder[gid]
                plan["held"][gid] = [held_digest, held_file]
                if gid in copies:
                    plan["copies"][gid] = list(copies[gid])
                if held_digest == digest:
                    copies.setdefault(gid, []).append(file)
                else:
                    plans[owner]["withdrawn"].append(gid)
                    conflicted[gid] = [held_file, *copies.pop(gid, []), file]
                    del holder[gid]
            else:
                holder[gid] = (digest, file, archive.name)
                numbers[archive.name] += 1
    return {name: Planned(plan, numbers[name]) for name, plan in plans.items()}


def claims_of(plan: Plan) -> Claims:
    """The claims a task's ingest starts from: what a database holding the earlier archives would hold (the held
    games as stored by an earlier ingest; counts, which only the report's withdrawn totals use, unknown: 0)."""
    claims = Claims([])
    claims.holder = {gid: Claim(digest, file, 0, 0, 0, True) for gid, (digest, file) in plan["held"].items()}
    claims.copies = {gid: [Copy(file, 0) for file in files] for gid, files in plan["copies"].items()}
    claims.conflicted = {gid: list(files) for gid, files in plan["conflicted"].items()}
    return claims
