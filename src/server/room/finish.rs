//! A room's finished game goes to the club's archive, once: both seats, rated or
//! casual, the time control, result and reason, the saved game, start and end; a
//! tournament's game through its pairing (its result and points noted with it). A rated
//! game's rating changes are then told on both screens. A game in which a side never
//! moved is aborted, not kept (nor rated), however it ended; in a tournament it is lost
//! by the side that did not move, and kept unrated.

use super::saving::saved_game;
use super::seats::seat_name;
use super::{index, referee::status, wake_all, Kept, Room, RoomState};
use crate::chess::{Color, Status};
use crate::club::{FinishedGame, RatedSides, RatingChange, Seat};
use crate::server::club::Club;
use std::sync::Arc;

/// `game` with the seats of accounts deleted while it was played as seats of no
/// account (a member always has a key: one without any is gone); a game with such a
/// seat is not rated.
fn without_deleted(mut game: FinishedGame, club: &Club) -> FinishedGame {
    let gone = |seat: &Seat| {
        seat.member
            .is_some_and(|m| club.store().keys(m).is_ok_and(|k| k.is_empty()))
    };
    let (white, black) = (gone(&game.white), gone(&game.black));
    if white {
        game.white.member = None;
    }
    if black {
        game.black.member = None;
    }
    game.rated &= !(white || black);
    game
}

impl Room {
    /// The room's finished game is kept by `club` (set once, when the hub takes the
    /// room); a game that ended before it was kept is kept now.
    pub fn keep_in(&self, club: Arc<Club>) {
        if self.club.set(club).is_ok() {
            self.keep_finished();
        }
    }

    /// Writes the finished game to the club, unless it is there or being written: one
    /// transaction outside the room's lock; the room then saves that it is kept (so that
    /// a restart does not write it again) and tells the rating changes.
    pub(super) fn keep_finished(&self) {
        let Some(club) = self.club.get() else {
            return;
        };
        let game = {
            let mut st = self.lock();
            // A game in which a side never moved is aborted, however it ended: not kept
            // (a tournament's is lost by who did not move, and kept).
            let aborted = st.game.ply() < 2 && st.pairing.is_none();
            if st.kept != Kept::Not || status(&st) == Status::Ongoing || aborted {
                return;
            }
            st.kept = Kept::Writing;
            finished(&st)
        };
        let game = without_deleted(game, club);
        let pairing = self.lock().pairing;
        let written = match pairing {
            Some(p) => club.store().record_pairing(p, &game),
            None => club.store().record_game(&game),
        };
        {
            let mut st = self.lock();
            match written {
                Ok((_, sides)) => {
                    st.kept = Kept::Done;
                    if let Some(sides) = sides {
                        let words = changes(&game, &sides);
                        st.referee.say(words);
                    }
                }
                Err(e) => {
                    st.kept = Kept::Not;
                    eprintln!(
                        "qchess serve: room {}: the club did not keep the game: {e}",
                        self.name
                    );
                    st.referee
                        .say(format!("the club's archive could not keep this game: {e}"));
                }
            }
        }
        let _ = self.save();
        let mut st = self.lock();
        st.version += 1;
        wake_all(&st);
    }
}

/// The finished game of the room as the club keeps it. Rated when the room is and its
/// players can be: two different members on a clock.
fn finished(st: &RoomState) -> FinishedGame {
    let seat = |side: Color| {
        let person = st
            .computer
            .filter(|c| c.side == side)
            .map_or_else(|| st.seats[index(side)].person.as_ref(), |_| None);
        Seat {
            member: person.and_then(|p| p.member),
            name: seat_name(st, side).unwrap_or_else(|| side.name().to_string()),
        }
    };
    let (white, black) = (seat(Color::White), seat(Color::Black));
    let control = st.referee.control();
    let members = white.member.zip(black.member).is_some_and(|(w, b)| w != b);
    // A tournament's game lost before both sides moved is kept, not rated.
    let played = st.game.ply() >= 2;
    let saved = saved_game(st);
    FinishedGame {
        rated: st.rated && members && control.is_some() && played,
        white,
        black,
        control,
        result: status(st),
        reason: saved.reason.clone(),
        record: saved.to_toml(),
        started: st.started,
        ended: Club::now(),
        key: Some(st.game_key.clone()),
    }
}

/// Both players' rating changes: "rated blitz: ann 1500 -> 1662 (+162), bo 1500 ->
/// 1338 (-162)".
fn changes(game: &FinishedGame, sides: &RatedSides) -> String {
    let change = |seat: &Seat, (before, after)| RatingChange {
        name: seat.name.clone(),
        before,
        after,
    };
    format!(
        "rated {}: {}, {}",
        sides.category,
        change(&game.white, sides.white),
        change(&game.black, sides.black)
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::{member, person};
    use super::super::{new_game, Want};
    use super::*;
    use crate::club::GameQuery;
    use crate::game::table::Decision;
    use crate::game::{CancelFlag, RuleSet};
    use crate::quantum::BackendKind;
    use crate::server::limits::ServerLimits;

    fn games(club: &Club) -> usize {
        let query = GameQuery {
            member: None,
            limit: 10,
        };
        club.store().games(query).map_or(0, |g| g.len())
    }

    #[test]
    fn a_game_is_kept_once_across_restarts_in_the_middle_and_after_the_end() {
        let dir = std::env::temp_dir().join(format!("qchess-room-kept-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let club = Arc::new(Club::open(&dir.join("club.sqlite")).unwrap());
        let limits = ServerLimits::default();
        let board = new_game(RuleSet::Quantum, BackendKind::Sparse, 5, &limits).unwrap();
        let r = Arc::new(Room::new("k1", board, Some(&dir)).with_clock("5+3".parse().ok()));
        r.keep_in(Arc::clone(&club));
        let wake: super::super::Wake = Arc::new(|| {});
        r.join(1, person("ann"), Want::Any, wake.clone()).unwrap();
        r.join(2, person("bo"), Want::Any, wake.clone()).unwrap();
        r.play(
            1,
            Color::White,
            0,
            &crate::game::Move::Text("e2e4".into()),
            CancelFlag::default(),
        )
        .unwrap();
        r.play(
            2,
            Color::Black,
            1,
            &crate::game::Move::Text("e7e5".into()),
            CancelFlag::default(),
        )
        .unwrap();
        assert_eq!(games(&club), 0, "not over");
        // A restart in the middle of the game: the room comes back unkept.
        let file = dir.join("k1.toml");
        let back = Arc::new(Room::restore(&file, &limits).unwrap());
        back.keep_in(Arc::clone(&club));
        assert_eq!(games(&club), 0);
        back.join(3, person("bo"), Want::Any, wake.clone()).unwrap();
        back.join(4, person("ann"), Want::Any, wake.clone())
            .unwrap();
        back.play(
            4,
            Color::White,
            2,
            &crate::game::Move::Text("d2d4".into()),
            CancelFlag::default(),
        )
        .unwrap();
        assert_eq!(games(&club), 0);
        back.decide(3, Color::Black, Decision::Resign).unwrap();
        assert_eq!(games(&club), 1, "kept when it ended");
        // Told again, or brought back again after the end: not written twice.
        back.told();
        let again = Room::restore(&file, &limits).unwrap();
        again.keep_in(Arc::clone(&club));
        assert_eq!(games(&club), 1);
        let query = GameQuery {
            member: None,
            limit: 10,
        };
        let kept = club.store().games(query).unwrap();
        assert_eq!(kept[0].result, Status::WhiteWins);
        assert!(!kept[0].rated, "guests play casual games");
        assert_eq!(kept[0].reason.as_deref(), Some("black resigned"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_game_whose_player_deleted_their_account_is_kept_unrated() {
        let dir = std::env::temp_dir().join(format!("qchess-room-gone-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let club = Arc::new(Club::open(&dir.join("club.sqlite")).unwrap());
        let (ann, bo) = (member(&club, "ann", 1), member(&club, "bo", 2));
        let limits = ServerLimits::default();
        let board = new_game(RuleSet::Quantum, BackendKind::Sparse, 5, &limits).unwrap();
        let r = Arc::new(Room::new("g1", board, Some(&dir)).with_clock("5+3".parse().ok()));
        r.keep_in(Arc::clone(&club));
        let wake: super::super::Wake = Arc::new(|| {});
        r.join(1, ann.clone(), Want::Any, wake.clone()).unwrap();
        r.join(2, bo, Want::Any, wake).unwrap();
        for (who, side, ply, text) in [(1, Color::White, 0, "e2e4"), (2, Color::Black, 1, "e7e5")] {
            let mv = crate::game::Move::Text(text.into());
            r.play(who, side, ply, &mv, CancelFlag::default()).unwrap();
        }
        assert!(club.store().delete_member(ann.member.unwrap()).unwrap());
        r.decide(1, Color::White, Decision::Resign).unwrap();
        let query = GameQuery {
            member: None,
            limit: 10,
        };
        let kept = club.store().games(query).unwrap();
        assert_eq!(kept.len(), 1, "kept");
        assert!(!kept[0].rated && kept[0].white.member.is_none());
        assert_eq!(kept[0].white.name, "ann");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_crash_between_the_games_commit_and_the_room_noting_it_keeps_the_game_once() {
        let dir = std::env::temp_dir().join(format!("qchess-room-crash-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let club = Arc::new(Club::open(&dir.join("club.sqlite")).unwrap());
        let (ann, bo) = (member(&club, "ann", 1), member(&club, "bo", 2));
        let limits = ServerLimits::default();
        let board = new_game(RuleSet::Quantum, BackendKind::Sparse, 5, &limits).unwrap();
        let r = Room::new("c1", board, Some(&dir))
            .with_clock("5+3".parse().ok())
            .rated(true);
        let r = Arc::new(r);
        r.keep_in(Arc::clone(&club));
        let wake: super::super::Wake = Arc::new(|| {});
        r.join(1, ann.clone(), Want::Any, wake.clone()).unwrap();
        r.join(2, bo.clone(), Want::Any, wake).unwrap();
        for (who, side, ply, text) in [(1, Color::White, 0, "e2e4"), (2, Color::Black, 1, "e7e5")] {
            let mv = crate::game::Move::Text(text.into());
            r.play(who, side, ply, &mv, CancelFlag::default()).unwrap();
        }
        r.decide(2, Color::Black, Decision::Resign).unwrap();
        assert_eq!(games(&club), 1);
        let told = r.lock().referee.notice().1.clone();
        assert!(told.starts_with("rated blitz: ann 1500? -> "), "{told}");
        // The server dies after the club's commit, before the seats file says `kept`.
        let file = dir.join("c1.toml");
        let seats = super::super::saving::seats_path(&file);
        let text = std::fs::read_to_string(&seats).unwrap();
        assert!(text.contains("kept = true"), "{text}");
        std::fs::write(&seats, text.replace("kept = true\n", "")).unwrap();
        let back = Room::restore(&file, &limits).unwrap();
        back.keep_in(Arc::clone(&club));
        assert_eq!(games(&club), 1, "the same game is not archived twice");
        for person in [&ann, &bo] {
            let ratings = club.store().ratings(person.member.unwrap()).unwrap();
            assert_eq!(ratings[0].games, 1, "rated once: {ratings:?}");
        }
        assert_eq!(
            back.lock().referee.notice().1,
            told,
            "the change is told again"
        );
        assert!(back.lock().kept == Kept::Done);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_tournament_game_goes_to_its_pairing_and_no_first_move_loses_it() {
        use crate::club::tournament::record::{Length, NewTournament};
        use crate::club::tournament::{Board, Kind};
        let dir = std::env::temp_dir().join(format!("qchess-room-pairing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let club = Arc::new(Club::open(&dir.join("club.sqlite")).unwrap());
        let (ann, bo) = (member(&club, "ann", 1), member(&club, "bo", 2));
        let (a, b) = (ann.member.unwrap(), bo.member.unwrap());
        let t = club
            .store()
            .create_tournament(&NewTournament {
                name: "Winter Cup".into(),
                kind: Kind::Swiss,
                control: "5+3".parse().unwrap(),
                length: Length::Rounds(1),
                starts: 0,
                creator: None,
            })
            .unwrap();
        for m in [a, b] {
            club.store().enter(t.id, m, 1500.0, 0).unwrap();
        }
        let board = Board { white: a, black: b };
        let kept = club.store().pair(t.id, 1, &[board], None).unwrap();
        let limits = ServerLimits::default();
        let game = new_game(RuleSet::Quantum, BackendKind::Sparse, 5, &limits).unwrap();
        let r = Room::new("t1-1", game, None)
            .with_clock("5+3".parse().ok())
            .rated(true);
        r.keep_in(Arc::clone(&club));
        r.for_pairing(kept[0].id);
        r.first_moves_within(std::time::Duration::from_millis(100));
        r.reserve(Color::White, ann);
        r.reserve(Color::Black, bo.clone());
        // Bo comes; ann never does: after the wait, the game is bo's, kept unrated.
        r.join(2, bo, Want::Any, Arc::new(|| {})).unwrap();
        let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !r.look_at_clock() {
            assert!(std::time::Instant::now() < until, "no forfeit");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(!r.is_closed(), "lost, not aborted");
        let pairing = club.store().pairings(t.id).unwrap()[0];
        assert_eq!(pairing.pairing.result, Some(Status::BlackWins));
        let query = GameQuery {
            member: None,
            limit: 10,
        };
        let kept = club.store().games(query).unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].event.as_deref(), Some("Winter Cup"));
        assert!(!kept[0].rated, "no move was made");
        let reason = kept[0].reason.clone().unwrap_or_default();
        assert!(
            reason.starts_with("white made no first move within"),
            "{reason}"
        );
        let units: Vec<u32> = club
            .store()
            .entries(t.id)
            .unwrap()
            .iter()
            .map(|e| e.units)
            .collect();
        assert_eq!(units, [0, 2]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
