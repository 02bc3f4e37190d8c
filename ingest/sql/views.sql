-- Views per event family, for people who write SQL. Recreated on every open, so they follow the code.

CREATE OR REPLACE VIEW zone_moves AS          -- every card moved: one row per card (a list event is unnested)
SELECT e.game, e.n, e.turn, e.step, e.player, e.kind, c.card, e.src, e.dst
FROM (SELECT game, n, turn, step, player, kind, src, dst,
             CASE WHEN card IS NOT NULL THEN [card] ELSE cards END AS moved
      FROM events WHERE dst IS NOT NULL AND (card IS NOT NULL OR cards IS NOT NULL)) e,
     unnest(e.moved) AS c(card);

CREATE OR REPLACE VIEW counter_changes AS     -- every counter change (Echo, wounds, Slava, score, ...)
SELECT game, n, turn, step, player, kind, counter, holder, value, amount, source
FROM events WHERE counter IS NOT NULL;

CREATE OR REPLACE VIEW game_results AS        -- one row per game and seat: deck, first or not, won or not
SELECT g.game, g.game_id, g.ruleset, p.seat, p.deck, p.agent, g.first_player = p.seat AS went_first,
       g.winner = p.seat AS won, g.winner, g.turns, g.events, g.end_reason
FROM games g JOIN players p USING (game);

-- Miras 9 -----------------------------------------------------------------------------------------------------------

CREATE OR REPLACE VIEW m9_stack_items AS      -- reaction windows, pushes, priority passes and resolutions, in order
SELECT game, n, turn, step, player, kind, card, target,
       extra->>'window' AS window_name, (extra->>'priority')::INTEGER AS priority,
       (extra->>'ability')::INTEGER AS ability, (extra->>'controller')::INTEGER AS controller,
       (extra->>'depth')::INTEGER AS depth, (extra->>'passes')::INTEGER AS passes, (extra->>'to')::INTEGER AS priority_to,
       (extra->>'fizzled')::BOOLEAN AS fizzled
FROM events
WHERE kind IN ('WindowOpened', 'StackPushed', 'PriorityPassed', 'StackResolved', 'WindowClosed');

CREATE OR REPLACE VIEW m9_attack_waves AS     -- every wave step, declaration, block, combat damage and wave end
SELECT game, n, turn, step, player, kind, card, target, amount,
       (extra->>'wave')::INTEGER AS wave, (extra->>'step_no')::INTEGER AS wave_step, extra->>'name' AS step_name,
       extra->>'site' AS site, (extra->>'attackers')::INTEGER[] AS attackers,
       (extra->>'targets')::INTEGER[] AS targets, (extra->>'blockers')::INTEGER[] AS blockers,
       (extra->>'source')::INTEGER AS source_card
FROM events
WHERE kind IN ('WaveStep', 'WaveDeclared', 'BlockersDeclared', 'CombatDamage', 'LeftWave', 'WaveEnded');

CREATE OR REPLACE VIEW m9_damage_payments AS  -- Battle Damage: assignments and each point paid, with its source
SELECT game, n, turn, step, player, kind,
       CASE WHEN kind = 'BattleDamagePaid' THEN player END AS payer,
       CASE WHEN kind = 'BattleDamageAssigned' THEN holder END AS damaged_player,
       amount, source AS paid_from,
       CASE WHEN kind = 'BattleDamagePaid' THEN card END AS paid_card, src, dst,
       CASE WHEN counter = 'echo' THEN value END AS echo_after,
       (extra->>'point')::INTEGER AS point, (extra->>'remaining')::INTEGER AS remaining,
       coalesce((extra->>'attacker')::INTEGER, (extra->>'source')::INTEGER) AS attacker
FROM events
WHERE kind IN ('BattleDamageAssigned', 'BattleDamagePaid');

CREATE OR REPLACE VIEW m9_movements AS      -- normal movement and arrival (one row per card: the mover first, then
SELECT e.game, e.n, e.turn, e.step, e.player, e.kind, c.card, c.idx = 1 AS mover, e.src, e.dst,  -- its riders),
       (e.extra->>'cost')::INTEGER AS cost, NULL::INTEGER AS spotted_by                            -- and Spot
FROM (SELECT * FROM events WHERE kind IN ('UnitMoved', 'Arrived')) e, unnest(e.cards) WITH ORDINALITY AS c(card, idx)
UNION ALL
SELECT game, n, turn, step, player, kind, card, NULL, NULL, NULL, NULL, (extra->>'source')::INTEGER
FROM events WHERE kind = 'Spotted';

CREATE OR REPLACE VIEW m9_crews AS          -- every embark and disembark, with the host and why
SELECT game, n, turn, step, player, kind, card, (extra->>'host')::INTEGER AS host, kind = 'Embarked' AS boarding,
       extra->>'reason' AS reason
FROM events WHERE kind IN ('Embarked', 'Disembarked');

CREATE OR REPLACE VIEW m9_blackwake AS       -- every Blackwake check [M9-088] and what came of it [M9-089]
SELECT game, n, turn, step, player, kind, card, card_id, src AS revealed_from, extra->>'instruction' AS instruction,
       extra->>'outcome' AS outcome, target, extra->>'to' AS replaced_to
FROM events
WHERE kind IN ('BlackwakeChecked', 'BlackwakeResolved');

CREATE OR REPLACE VIEW m9_extra_attacks AS   -- card-granted extra attacks [M9-073], [M9-083]: grants, taken or let go
SELECT game, n, turn, step, player, kind, card, (extra->>'wave')::INTEGER AS wave, extra->>'site' AS site,
       extra->>'reason' AS reason, (extra->>'taken')::BOOLEAN AS taken
FROM events
WHERE kind IN ('ExtraAttackGranted', 'ExtraAttackTaken');

-- MORANA ------------------------------------------------------------------------------------------------------------

CREATE OR REPLACE VIEW mor_commits AS         -- sealed Commits (and Reborn/Invocation commits), the flip, CommitDone
SELECT game, n, turn, step, player, kind, card, cards, src, dst, (extra->>'site')::INTEGER AS site,
       (extra->>'placed')::INTEGER AS placed, (extra->>'sites')::INTEGER[] AS sites,
       (extra->>'reborn')::INTEGER[] AS reborn
FROM events
WHERE kind IN ('Committed', 'RebornCommitted', 'InvocationCommitted', 'CommitDone', 'Flipped');

CREATE OR REPLACE VIEW mor_site_resolutions AS -- each Site's resolution, its effects, and the Rite scoring
SELECT game, n, turn, step, player, kind, card, target, amount, counter, holder, value, source,
       (extra->>'site')::INTEGER AS site, (extra->>'first')::INTEGER AS first,
       CASE WHEN (extra->>'first')::INTEGER >= 0 THEN (extra->>'first')::INTEGER END AS first_resolver,
       (extra->>'first')::INTEGER = -1 AS simultaneous, extra->>'reason' AS reason,
       (extra->>'winner')::INTEGER AS site_winner, (extra->>'slava')::INTEGER[] AS slava,
       (extra->>'power')::INTEGER[] AS power
FROM events
WHERE kind IN ('SiteResolutionBegan', 'OmenFired', 'RebornFired', 'CharmFired', 'ClashFired', 'PowerChanged',
               'Defeated', 'CharmSpent', 'SiteScored', 'SlavaGained');

-- Decisions -------------------------------------------------------------------------------------------------------

CREATE OR REPLACE VIEW decision_options AS    -- one row per option offered, its kind and fields by name
SELECT d.game, d.n, d.player, d.point, (o.idx - 1)::INTEGER AS option, k.kind, (o.idx - 1) = d.chosen AS chosen,
       map(k.fields, [json_extract(o.opt, '$[' || i || ']') FOR i IN range(1, len(k.fields) + 1)]) AS fields
FROM decisions d
JOIN games g USING (game)
CROSS JOIN unnest(d.offered::JSON[]) WITH ORDINALITY AS o(opt, idx)
JOIN option_kinds k ON k.ruleset = g.ruleset AND k.tag = o.opt->>0;

CREATE OR REPLACE VIEW m9_ship_sites AS      -- Ship-Site moves (one row per card: the Ship-Site, then its riders)
SELECT e.game, e.n, e.turn, e.step, e.player, e.kind, c.card, c.idx = 1 AS ship_site, e.src, e.dst,  -- [M9-063],
       (e.extra->>'cost')::INTEGER AS cost, e.extra->>'kind' AS move_kind,                  -- and attacks on
       NULL::INTEGER AS attacker, NULL::INTEGER AS amount, NULL::INTEGER AS retaliation      -- them [M9-072]
FROM (SELECT * FROM events WHERE kind = 'ShipSiteMoved') e, unnest(e.cards) WITH ORDINALITY AS c(card, idx)
UNION ALL
SELECT game, n, turn, step, player, kind, card, TRUE, NULL, NULL, NULL, NULL,
       coalesce((extra->>'source')::INTEGER, TRY_CAST(source AS INTEGER)), amount, (extra->>'retaliation')::INTEGER
FROM events WHERE kind = 'ShipSiteAttacked';
