-- A club database as schema version 5 wrote it (version 4, the club's servers and their
-- live rooms and seeks): two members, a key, a ban, a rated game with its key played in a
-- Swiss of one round, a casual game without a key, and a server long gone with a room and
-- a seek.
-- Kept as it is when later versions come: the migration test opens it with the current qchess.
PRAGMA user_version = 5;
CREATE TABLE members (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,
    created INTEGER NOT NULL
);
CREATE TABLE keys (
    fingerprint TEXT PRIMARY KEY,
    openssh TEXT NOT NULL,
    member INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    added INTEGER NOT NULL
);
CREATE INDEX keys_member ON keys(member);
CREATE TABLE ratings (
    member INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    category TEXT NOT NULL CHECK (category IN ('bullet', 'blitz', 'rapid', 'classical')),
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    last_played INTEGER NOT NULL,
    PRIMARY KEY (member, category)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings(category, rating);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    white INTEGER REFERENCES members(id) ON DELETE SET NULL,
    white_name TEXT NOT NULL,
    black INTEGER REFERENCES members(id) ON DELETE SET NULL,
    black_name TEXT NOT NULL,
    rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
    category TEXT CHECK (category IN ('bullet', 'blitz', 'rapid', 'classical')),
    time_control TEXT,
    result TEXT NOT NULL CHECK (result IN ('white_wins', 'black_wins', 'draw')),
    reason TEXT,
    record TEXT NOT NULL,
    white_before REAL, white_before_deviation REAL, white_before_volatility REAL,
    white_after REAL, white_after_deviation REAL, white_after_volatility REAL,
    black_before REAL, black_before_deviation REAL, black_before_volatility REAL,
    black_after REAL, black_after_deviation REAL, black_after_volatility REAL,
    started INTEGER NOT NULL,
    ended INTEGER NOT NULL,
    game_key TEXT,
    event TEXT
);
CREATE UNIQUE INDEX games_key ON games(game_key) WHERE game_key IS NOT NULL;
CREATE INDEX games_ended ON games(ended, id);
CREATE INDEX games_white ON games(white, ended, id);
CREATE INDEX games_black ON games(black, ended, id);
CREATE TABLE bans (
    fingerprint TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    since INTEGER NOT NULL
);
INSERT INTO members VALUES (1, 'Ann', 'ann', 1764000000), (2, 'bob', 'bob', 1764000100);
INSERT INTO keys VALUES ('SHA256:annkey', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIann ann@home', 1, 1764000000);
INSERT INTO bans VALUES ('SHA256:spam', 'flooding the lobby', 1764000200);
INSERT INTO ratings VALUES
    (1, 'blitz', 1662.3108, 290.3189, 0.0599997, 1, 1764003600),
    (2, 'blitz', 1337.6892, 290.3189, 0.0599997, 1, 1764003600);
INSERT INTO games VALUES
    (1, 1, 'Ann', 2, 'bob', 1, 'blitz', '5+3', 'white_wins', 'black resigned',
     'format = 1
moves = ["e2e4", "e7e5"]
result = "white_wins"
',
     1500, 350, 0.06, 1662.3108, 290.3189, 0.0599997,
     1500, 350, 0.06, 1337.6892, 290.3189, 0.0599997,
     1764003000, 1764003600, 'rated-1-1764003000-5f0e2a9c41d37b68', 'Friday Swiss'),
    (2, NULL, 'guest-7', 2, 'bob', 0, NULL, NULL, 'draw', NULL,
     'format = 1
moves = []
result = "draw"
', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
     1764004000, 1764004100, NULL, NULL);
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('arena', 'swiss')),
    time_control TEXT NOT NULL,
    rounds INTEGER,
    minutes INTEGER,
    starts INTEGER NOT NULL,
    creator INTEGER REFERENCES members(id) ON DELETE SET NULL,
    state TEXT NOT NULL
        CHECK (state IN ('scheduled', 'running', 'finished', 'cancelled')),
    round INTEGER NOT NULL
);
CREATE INDEX tournaments_starts ON tournaments(starts, id);
CREATE TABLE entries (
    tournament INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    member INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    rating REAL NOT NULL,
    joined INTEGER NOT NULL,
    withdrawn INTEGER NOT NULL CHECK (withdrawn IN (0, 1)),
    points INTEGER NOT NULL,
    PRIMARY KEY (tournament, member)
);
CREATE TABLE pairings (
    id INTEGER PRIMARY KEY,
    tournament INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    white INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    black INTEGER REFERENCES members(id) ON DELETE CASCADE,
    game INTEGER REFERENCES games(id) ON DELETE SET NULL,
    result TEXT CHECK (result IN ('white_wins', 'black_wins', 'draw'))
);
CREATE INDEX pairings_tournament ON pairings(tournament, round, id);
INSERT INTO tournaments VALUES
    (1, 'Friday Swiss', 'friday swiss', 'swiss', '5+3', 1, NULL, 1764002900, NULL, 'finished', 1);
INSERT INTO entries VALUES (1, 1, 1500, 1764002800, 0, 2), (1, 2, 1500, 1764002850, 0, 0);
INSERT INTO pairings VALUES (1, 1, 1, 1, 2, 1, 'white_wins');
CREATE TABLE servers (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    seen INTEGER NOT NULL
);
CREATE TABLE live_rooms (
    server TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    rules TEXT NOT NULL,
    clock TEXT,
    white TEXT,
    black TEXT,
    watchers INTEGER NOT NULL,
    rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
    PRIMARY KEY (server, name)
);
CREATE TABLE live_seeks (
    server TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    id INTEGER NOT NULL,
    poster TEXT NOT NULL,
    rating TEXT NOT NULL,
    clock TEXT NOT NULL,
    rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
    colour TEXT NOT NULL,
    range TEXT,
    PRIMARY KEY (server, id)
);
INSERT INTO servers VALUES ('0f3a9c2e7b1d4a65', 'play1.example:2222', 1764004200);
INSERT INTO live_rooms VALUES
    ('0f3a9c2e7b1d4a65', 'ann', 'quantum sparse', '5+3', 'Ann', NULL, 0, 0);
INSERT INTO live_seeks VALUES
    ('0f3a9c2e7b1d4a65', 3, 'bob', '1338?', '7+2', 0, 'random', '1200-1600');
