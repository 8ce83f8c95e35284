import GRDB

/// The index's tables, as versioned migrations. A released migration is never edited:
/// changes come as new ones, so an index written by an older qplay opens and upgrades.
enum LibrarySchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: tracks, folded search columns, trigram index") { db in
            // Paths are BLOBs: the exact bytes of the name, valid UTF-8 or not.
            // f_* columns hold the folded text (TextFolding) that predicates compare;
            // sort_artist is the folded album artist, or artist when there is none.
            try db.execute(
                sql: """
                    CREATE TABLE track (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        path BLOB NOT NULL UNIQUE,
                        title TEXT NOT NULL,
                        artist TEXT,
                        album TEXT,
                        album_artist TEXT,
                        genre TEXT,
                        track_number INTEGER,
                        disc_number INTEGER,
                        year INTEGER,
                        duration REAL NOT NULL,
                        bitrate INTEGER NOT NULL,
                        sample_rate INTEGER NOT NULL,
                        channels INTEGER NOT NULL,
                        rg_track_gain REAL,
                        rg_track_peak REAL,
                        rg_album_gain REAL,
                        rg_album_peak REAL,
                        file_size INTEGER NOT NULL,
                        mtime INTEGER NOT NULL,
                        f_title TEXT NOT NULL,
                        f_artist TEXT NOT NULL,
                        f_album TEXT NOT NULL,
                        f_album_artist TEXT NOT NULL,
                        f_genre TEXT NOT NULL,
                        f_path TEXT NOT NULL,
                        sort_artist TEXT NOT NULL
                    );
                    -- Substring search for 3+ characters, and the pre-filter of equals.
                    -- Titles get a table of their own: `qplay search` asks for titles, and
                    -- a title's trigram lists stay short when nothing else shares them.
                    -- Paths are not indexed (long, rarely searched): instr() scans them.
                    -- External content: the text lives once, in track. case_sensitive 1:
                    -- the columns are folded already, and FTS5's own folding must not
                    -- add matches the predicate would not make.
                    CREATE VIRTUAL TABLE track_title_fts USING fts5(
                        f_title, content = 'track', content_rowid = 'id',
                        tokenize = 'trigram case_sensitive 1');
                    CREATE VIRTUAL TABLE track_tags_fts USING fts5(
                        f_artist, f_album, f_album_artist, f_genre,
                        content = 'track', content_rowid = 'id',
                        tokenize = 'trigram case_sensitive 1');
                    CREATE TRIGGER track_fts_insert AFTER INSERT ON track BEGIN
                        INSERT INTO track_title_fts(rowid, f_title) VALUES (new.id, new.f_title);
                        INSERT INTO track_tags_fts(rowid, f_artist, f_album, f_album_artist, f_genre)
                        VALUES (new.id, new.f_artist, new.f_album, new.f_album_artist, new.f_genre);
                    END;
                    CREATE TRIGGER track_fts_delete AFTER DELETE ON track BEGIN
                        INSERT INTO track_title_fts(track_title_fts, rowid, f_title)
                        VALUES ('delete', old.id, old.f_title);
                        INSERT INTO track_tags_fts(track_tags_fts, rowid, f_artist, f_album, f_album_artist, f_genre)
                        VALUES ('delete', old.id, old.f_artist, old.f_album, old.f_album_artist, old.f_genre);
                    END;
                    CREATE TRIGGER track_fts_update AFTER UPDATE ON track BEGIN
                        INSERT INTO track_title_fts(track_title_fts, rowid, f_title)
                        VALUES ('delete', old.id, old.f_title);
                        INSERT INTO track_tags_fts(track_tags_fts, rowid, f_artist, f_album, f_album_artist, f_genre)
                        VALUES ('delete', old.id, old.f_artist, old.f_album, old.f_album_artist, old.f_genre);
                        INSERT INTO track_title_fts(rowid, f_title) VALUES (new.id, new.f_title);
                        INSERT INTO track_tags_fts(rowid, f_artist, f_album, f_album_artist, f_genre)
                        VALUES (new.id, new.f_artist, new.f_album, new.f_album_artist, new.f_genre);
                    END;

                    -- Small facts about the library, e.g. the last scan's summary (JSON).
                    CREATE TABLE library_info (key TEXT PRIMARY KEY, value BLOB NOT NULL);
                    """)
        }
        migrator.registerMigration("v2: skipped files remembered") { db in
            // Files a scan could not index, by exact path bytes with the size and mtime
            // (ns) they had: a rescan neither reads nor reports them again until they
            // change. Only lasting reasons are kept (not "cannot open").
            try db.execute(
                sql: """
                    CREATE TABLE skipped_file (
                        path BLOB PRIMARY KEY,
                        file_size INTEGER NOT NULL,
                        mtime INTEGER NOT NULL,
                        reason TEXT NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v3: format and bit depth") { db in
            // Before this, only MPEG files (.mp3, .mp2, .mp1 read as MPEG by TagLib) were
            // indexed, so every existing row is 'mp3' with no bit depth: true without
            // reading any file again. FLAC, Vorbis and Opus files are new to the next scan.
            try db.execute(
                sql: """
                    ALTER TABLE track ADD COLUMN format TEXT NOT NULL DEFAULT 'mp3';
                    ALTER TABLE track ADD COLUMN bits INTEGER;
                    """)
        }
        migrator.registerMigration("v4: trigram entries of new rows written per batch") { db in
            // A trigger inserting each new row's trigrams cost ~54 µs of CPU a row (6.1 s
            // for 100,000 rows against 0.7 s without the trigram tables); one
            // INSERT … SELECT per batch does the same work in ~13 µs a row.
            // `LibraryIndex.write` adds the new rows' entries itself; updates and
            // deletes keep their triggers (they need the old values).
            try db.execute(sql: "DROP TRIGGER track_fts_insert")
        }
        migrator.registerMigration("v5: skipped files read again by content") { db in
            // Scans before this chose TagLib's parser by the file name: a FLAC file named
            // .mp3 was skipped ("no audio stream found") and remembered. The format is
            // now chosen by content, so every remembered skip is read once more.
            try db.execute(sql: "DELETE FROM skipped_file")
        }
        migrator.registerMigration("v6: skipped files read again for FFmpeg's formats") { db in
            // AAC, ALAC, WAV, AIFF and WavPack are played now: a WAV or an ADTS stream
            // named .mp3 or .flac was remembered as "not a file qplay plays". Their new
            // extensions (.m4a, .wav, …) were never scanned, so they come as new files.
            try db.execute(sql: "DELETE FROM skipped_file")
        }
        return migrator
    }
}
