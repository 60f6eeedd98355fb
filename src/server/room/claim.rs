//! A rated game its player left: the other side may claim the win, or wait. A claim
//! holds the seat of the player who left for the time left on their clock, at most the
//! server's `claim_wait` (a minute); back in time, they play on and the claim lapses;
//! else the game ends as the claimant's win (`black left the game`), kept and rated as
//! any other ending. Waiting costs nothing: the claim stays open while they are away,
//! and their clock runs on as ever (a flag still ends the game).
//!
//! Only rated games on a clock in which both sides moved can be claimed: before that
//! the first-move rule aborts the game, and casual rooms keep a dropped seat by the
//! seat grace alone. A claim is kept in the server's memory, not in the room's files:
//! it lapses with a restart, and the claimant may claim again once both are back in
//! the room's news.

use super::{index, RoomState};
use crate::chess::{Color, Status};
use crate::game::table::Left;
use std::time::{Duration, Instant};

/// The side whose player left a game that may be claimed while the other side's player
/// stays: a rated game between two players on a clock, going on, both sides having
/// moved.
pub(super) fn away(st: &RoomState) -> Option<Color> {
    let claimable = st.rated
        && st.computer.is_none()
        && st.referee.control().is_some()
        && st.game.ply() >= 2
        && st.referee.ending().is_none()
        && st.game.status() == Status::Ongoing;
    let here = |c: Color| st.seats[index(c)].session.is_some();
    let gone = |c: Color| st.seats[index(c)].person.is_some() && !here(c);
    [Color::White, Color::Black]
        .into_iter()
        .find(|&c| claimable && gone(c) && here(c.opposite()))
}

/// How long a claim of the win by `side` at `now` holds the seat of the other side's
/// player, who left: the time left on their clock, at most `most`. `None` when there
/// is nothing for `side` to claim.
pub(super) fn hold(st: &RoomState, side: Color, most: Duration, now: Instant) -> Option<Duration> {
    let gone = away(st).filter(|&c| c == side.opposite())?;
    Some(st.referee.time_left(gone, now)?.min(most))
}

/// What the screens are told of a player who left, while the win may be claimed from
/// them (`most`: the longest a claim holds their seat).
pub(super) fn news(st: &RoomState, most: Duration) -> Option<Left> {
    let side = away(st)?;
    let claimed = st
        .referee
        .claim()
        .filter(|&(by, _)| by == side.opposite())
        .map(|(_, until)| until);
    Some(Left {
        side,
        most,
        claimed,
    })
}

/// `side`'s player left the room: a claim they made lapses (nobody stays to win it);
/// else, when the win may now be claimed from them, every screen is told.
pub(super) fn left_seat(st: &mut RoomState, side: Color) {
    if st.referee.claim().is_some_and(|(by, _)| by == side) {
        let why = format!("{} left too: the claim lapses", side.name());
        st.referee.lapse(why);
    } else if away(st) == Some(side) {
        st.referee.say(format!(
            "{} left the game: {} may claim the win (C) or wait",
            side.name(),
            side.opposite().name()
        ));
    }
}

/// `side`'s player is back in their seat (`was`: the side the win could be claimed
/// from before): a claim against them lapses, and every screen is told.
pub(super) fn back(st: &mut RoomState, side: Color, was: Option<Color>) {
    if st
        .referee
        .claim()
        .is_some_and(|(by, _)| by == side.opposite())
    {
        let why = format!("{} is back: the claim lapses, play on", side.name());
        st.referee.lapse(why);
    } else if was == Some(side) {
        st.referee.say(format!("{} is back: play on", side.name()));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::member;
    use super::super::{new_game, Person, Room, Wake, Want};
    use super::*;
    use crate::club::GameQuery;
    use crate::game::table::Decision;
    use crate::game::{CancelFlag, Move, RuleSet};
    use crate::quantum::BackendKind;
    use crate::server::club::Club;
    use crate::server::limits::ServerLimits;
    use std::sync::Arc;

    /// A room of `clock` (rated or not) kept by `club`, where ann (session 1, white)
    /// and bo (session 2, black) made their first moves; a claim holds a seat at most
    /// `most`. The room and ann.
    fn played(club: &Arc<Club>, clock: &str, rated: bool, most: Duration) -> (Arc<Room>, Person) {
        let limits = ServerLimits::default();
        let board = new_game(RuleSet::Quantum, BackendKind::Sparse, 5, &limits).unwrap();
        let r = Room::new("c", board, None)
            .with_clock(clock.parse().ok())
            .with_claim_wait(most)
            .rated(rated);
        let r = Arc::new(r);
        r.keep_in(Arc::clone(club));
        let wake: Wake = Arc::new(|| {});
        let ann = member(club, "ann", 1);
        r.join(1, ann.clone(), Want::Any, wake.clone()).unwrap();
        r.join(2, member(club, "bo", 2), Want::Any, wake).unwrap();
        for (who, side, ply, text) in [(1, Color::White, 0, "e2e4"), (2, Color::Black, 1, "e7e5")] {
            let mv = Move::Text(text.into());
            r.play(who, side, ply, &mv, CancelFlag::default()).unwrap();
        }
        (r, ann)
    }

    fn club(name: &str) -> (std::path::PathBuf, Arc<Club>) {
        let dir = std::env::temp_dir().join(format!("qchess-claim-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let club = Arc::new(Club::open(&dir.join("club.sqlite")).unwrap());
        (dir, club)
    }

    fn notice(r: &Room) -> String {
        r.snapshot(2, (0, 0)).unwrap().notice.1
    }

    fn left(r: &Room) -> Option<Left> {
        r.snapshot(2, (0, 0)).unwrap().news.left
    }

    #[test]
    fn a_claim_holds_the_seat_for_the_leavers_time_at_most_and_a_comeback_cancels_it() {
        let (dir, club) = club("back");
        let minute = Duration::from_secs(60);
        // 0.25 minutes each: ann's clock has less than the minute a claim holds at most.
        let (r, ann) = played(&club, "0.25+0", true, minute);
        assert!(
            r.decide(2, Color::Black, Decision::ClaimWin).is_err(),
            "ann is here"
        );
        r.leave(1);
        assert_eq!(
            notice(&r),
            "white left the game: black may claim the win (C) or wait"
        );
        let told = left(&r).expect("ann left");
        assert_eq!(
            (told.side, told.most, told.claimed),
            (Color::White, minute, None)
        );
        let hold = {
            let st = r.lock();
            hold(&st, Color::Black, minute, Instant::now()).unwrap()
        };
        assert!(hold <= Duration::from_secs(15), "ann's clock: {hold:?}");
        assert!(hold > Duration::from_secs(10), "{hold:?}");
        r.decide(2, Color::Black, Decision::ClaimWin).unwrap();
        assert!(notice(&r).starts_with("black claims the win: white has 1"));
        assert!(left(&r).unwrap().claimed.is_some());
        // Ann is back within it: the claim lapses, both are told, the game goes on.
        r.join(3, ann, Want::Any, Arc::new(|| {})).unwrap();
        assert_eq!(notice(&r), "white is back: the claim lapses, play on");
        assert_eq!(left(&r), None);
        assert!(!r.look_at_clock());
        assert_eq!(r.summary().status, Status::Ongoing);
        let mv = Move::Text("d2d4".into());
        r.play(3, Color::White, 2, &mv, CancelFlag::default())
            .unwrap();
        // Bo claims again once ann left again, then leaves too: his claim lapses.
        r.leave(3);
        r.decide(2, Color::Black, Decision::ClaimWin).unwrap();
        r.leave(2);
        assert_eq!(r.lock().referee.claim(), None);
        assert_eq!(
            r.snapshot(3, (0, 0)).unwrap().notice.1,
            "black left too: the claim lapses"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_win_is_the_claimants_when_the_leaver_is_not_back_in_time_and_it_is_rated() {
        let (dir, club) = club("won");
        let (r, ann) = played(&club, "5+3", true, Duration::from_millis(200));
        r.leave(1);
        r.decide(2, Color::Black, Decision::ClaimWin).unwrap();
        let until = Instant::now() + Duration::from_secs(10);
        while !r.look_at_clock() {
            assert!(Instant::now() < until, "the claim never fell due");
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(r.summary().status, Status::BlackWins);
        let query = GameQuery {
            member: None,
            limit: 10,
        };
        let kept = club.store().games(query).unwrap();
        assert_eq!(kept.len(), 1);
        assert!(kept[0].rated);
        assert_eq!(kept[0].reason.as_deref(), Some("white left the game"));
        assert!(
            notice(&r).starts_with("rated blitz: ann 1500? -> "),
            "{}",
            notice(&r)
        );
        // Ann comes back too late: the game is over.
        r.join(3, ann, Want::Any, Arc::new(|| {})).unwrap();
        assert_eq!(r.summary().status, Status::BlackWins);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn casual_games_and_games_before_the_first_moves_are_not_claimed() {
        let (dir, club) = club("none");
        let most = Duration::from_secs(60);
        let (casual, _) = played(&club, "5+3", false, most);
        casual.leave(1);
        assert_eq!(left(&casual), None);
        assert!(casual.decide(2, Color::Black, Decision::ClaimWin).is_err());
        // Rated, but black has not moved yet: the first-move rule's, not a claim.
        let limits = ServerLimits::default();
        let board = new_game(RuleSet::Quantum, BackendKind::Sparse, 5, &limits).unwrap();
        let r = Arc::new(
            Room::new("f", board, None)
                .with_clock("5+3".parse().ok())
                .rated(true),
        );
        let wake: Wake = Arc::new(|| {});
        r.join(1, member(&club, "cy", 3), Want::Any, wake.clone())
            .unwrap();
        r.join(2, member(&club, "di", 4), Want::Any, wake).unwrap();
        let mv = Move::Text("e2e4".into());
        r.play(1, Color::White, 0, &mv, CancelFlag::default())
            .unwrap();
        r.leave(1);
        assert_eq!(left(&r), None);
        assert!(r.decide(2, Color::Black, Decision::ClaimWin).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
