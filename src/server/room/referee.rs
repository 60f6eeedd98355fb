//! A room's referee: the clocks of its time control, the flag that falls, resignations
//! and draw offers, and how the game ended outside its moves. The room owns them, not
//! the screens: a move entered stops the mover's clock, the other's starts once the
//! move has been played (the simulator's work is on nobody's clock), and the server's
//! referee thread looks at the flags a few times a second ([`Room::look_at_clock`]),
//! so that a flag falls with nobody at the keyboard and nobody connected.
//!
//! The clocks run once both seats have a player (connected or away): the side to
//! move's clock runs from then on, a disconnected player's too. After a restart of the
//! server each side has the time it had after its last move.

use super::{index, wake_all, Room, RoomState, SessionId};
use crate::chess::{Color, Status};
use crate::game::clock::{Clock, Ending, TimeControl};
use crate::game::table::{Decision, TableNews};
use crate::record::{SavedClock, CLOCK_VERSION};
use std::time::Instant;

/// Why a claim of the win is refused when nobody left.
const NOTHING_TO_CLAIM: &str =
    "nothing to claim: the win is claimed from an opponent who left a rated game, once both sides moved";

/// The clocks and the decisions outside the moves of one room's game.
#[derive(Debug, Default)]
pub(super) struct Referee {
    /// The clocks and what the saved game keeps of them, in a game on a time control.
    clock: Option<(Clock, SavedClock)>,
    /// When the move being carried out was entered (its mover's clock stopped then).
    entered: Option<Instant>,
    /// How the game ended outside its moves.
    ending: Option<Ending>,
    /// The side whose draw offer waits for an answer.
    offer: Option<Color>,
    /// The side that claimed the win from a player who left, and until when that
    /// player's seat is held for them.
    claim: Option<(Color, Instant)>,
    /// The last word for every screen of the room, numbered.
    notice: (u64, String),
}

impl Referee {
    /// A new game's referee: both clocks full, stopped.
    pub(super) fn new(control: Option<TimeControl>) -> Referee {
        let clock = control.map(|c| {
            let record = SavedClock {
                version: CLOCK_VERSION,
                control: c.to_string(),
                left: Vec::new(),
            };
            (Clock::new(c), record)
        });
        Referee {
            clock,
            ..Referee::default()
        }
    }

    /// A saved game's referee: the times after its last ply (`plies`, `first` moved
    /// first), stopped, and how it ended.
    pub(super) fn resumed(
        control: Option<(TimeControl, SavedClock)>,
        plies: usize,
        first: Color,
        ending: Option<Ending>,
    ) -> Referee {
        let clock = control.map(|(c, record)| {
            let left = record.left_after(c, plies, first);
            (Clock::resumed(c, left), record)
        });
        Referee {
            clock,
            ending,
            ..Referee::default()
        }
    }

    /// The time control.
    pub(super) fn control(&self) -> Option<TimeControl> {
        self.clock.as_ref().map(|(c, _)| c.control())
    }

    /// How the game ended outside its moves.
    pub(super) fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The time `side` has left at `now`, in a game on a clock.
    pub(super) fn time_left(&self, side: Color, now: Instant) -> Option<std::time::Duration> {
        self.clock.as_ref().map(|(c, _)| c.times(now).of(side))
    }

    /// The saved record of the clocks.
    pub(super) fn record(&self) -> Option<&SavedClock> {
        self.clock.as_ref().map(|(_, r)| r)
    }

    /// What the screens show of it.
    pub(super) fn news(&self) -> TableNews {
        TableNews {
            clock: self.clock.as_ref().map(|(c, _)| c.clone()),
            ending: self.ending.clone(),
            offer: self.offer,
            left: None,
        }
    }

    /// The last word for every screen, numbered.
    pub(super) fn notice(&self) -> &(u64, String) {
        &self.notice
    }

    pub(super) fn say(&mut self, text: String) {
        self.notice = (self.notice.0 + 1, text);
    }

    /// Starts the clock of `to_move` at `now` when it should run and does not: the
    /// game `ongoing`, both seats `seated`, no move being carried out.
    pub(super) fn run(&mut self, to_move: Color, seated: bool, ongoing: bool, now: Instant) {
        let idle = self.entered.is_none() && self.ending.is_none() && seated && ongoing;
        if let Some((c, _)) = &mut self.clock {
            if idle && c.running().is_none() {
                c.start(to_move, now);
            }
        }
    }

    /// `side` entered a move at `now`: its clock stops; a side whose time had run out
    /// loses on time instead (the ending is given back, the move refused).
    pub(super) fn entered(&mut self, side: Color, now: Instant) -> Result<(), Ending> {
        if let Some((c, _)) = &mut self.clock {
            if c.flag(now) == Some(side) {
                let lost = Ending::on_time(side);
                self.end(lost.clone(), now);
                return Err(lost);
            }
            c.pause(now);
        }
        self.entered = Some(now);
        Ok(())
    }

    /// The move `side` entered was played, its game now at `ply` plies: the mover gains
    /// the increment, its time is recorded, a draw offer lapses; the caller then runs
    /// the other side's clock.
    pub(super) fn played(&mut self, side: Color, ply: usize) {
        let at = self.entered.take().unwrap_or_else(Instant::now);
        self.offer = None;
        if let Some((c, record)) = &mut self.clock {
            c.moved(side, at);
            record.left.truncate(ply.saturating_sub(1));
            record.left.push(c.times(at).of(side).as_millis() as u64);
        }
    }

    /// The move entered was not played: the clocks are as before it (the caller runs
    /// the mover's again).
    pub(super) fn refused(&mut self) {
        self.entered = None;
    }

    /// The side whose flag has fallen at `now`, while no move is being carried out.
    fn flag(&self, now: Instant) -> Option<Color> {
        if self.entered.is_some() || self.ending.is_some() {
            return None;
        }
        self.clock.as_ref().and_then(|(c, _)| c.flag(now))
    }

    /// The game ends as `ending` says at `now`: the clocks stop, an offer and a claim
    /// lapse.
    fn end(&mut self, ending: Ending, now: Instant) {
        if let Some((c, _)) = &mut self.clock {
            c.pause(now);
        }
        self.offer = None;
        self.claim = None;
        self.ending = Some(ending);
    }

    /// The claim standing: the side that claimed the win, and until when the other
    /// side's seat is held for its player.
    pub(super) fn claim(&self) -> Option<(Color, Instant)> {
        self.claim
    }

    /// The claim standing lapses, and every screen is told `why`.
    pub(super) fn lapse(&mut self, why: String) {
        if self.claim.take().is_some() {
            self.say(why);
        }
    }

    /// How the game ends at `now` by the claim standing: the player who left did not
    /// come back in time.
    fn claim_due(&self, now: Instant) -> Option<Ending> {
        let (by, until) = self.claim?;
        (now >= until).then(|| Ending::left(by.opposite()))
    }

    /// `side` takes `decision` in `game` (ongoing); `computer` names the side the room's
    /// computer plays, which answers an offer at once ([`crate::engine::draws`]);
    /// `hold`, how long a claim of the win by `side` would hold the seat of the other
    /// side's player, who left (none when there is nothing to claim). The ending it
    /// led to, if any; or why it cannot be taken.
    fn decide(
        &mut self,
        side: Color,
        decision: Decision,
        computer: Option<Color>,
        hold: Option<std::time::Duration>,
        game: &dyn crate::game::Playable,
        now: Instant,
    ) -> Result<(), String> {
        let other = side.opposite();
        match decision {
            Decision::ClaimWin if self.claim.is_some() => {
                return Err("your claim stands: wait for its end".into())
            }
            Decision::ClaimWin => {
                let Some(hold) = hold else {
                    return Err(NOTHING_TO_CLAIM.into());
                };
                self.claim = Some((side, now + hold));
                self.say(format!(
                    "{} claims the win: {} has {} to come back",
                    side.name(),
                    other.name(),
                    super::words_for(hold)
                ));
            }
            Decision::Resign => self.end(Ending::resigned(side), now),
            Decision::OfferDraw if self.offer == Some(side) => {
                return Err("your draw offer stands: wait for the answer".into())
            }
            Decision::OfferDraw if computer == Some(other) => {
                match crate::engine::draws::answer_draw(game, other) {
                    Ok(()) => self.end(Ending::agreed(), now),
                    Err(no) => self.say(no),
                }
            }
            Decision::OfferDraw => {
                self.offer = Some(side);
                self.say(format!(
                    "{} offers a draw: {} answers y or n",
                    side.name(),
                    other.name()
                ));
            }
            Decision::AcceptDraw | Decision::DeclineDraw if self.offer != Some(other) => {
                return Err("there is no draw offer to answer".into())
            }
            Decision::AcceptDraw => self.end(Ending::agreed(), now),
            Decision::DeclineDraw => {
                self.offer = None;
                self.say(format!("{} declines the draw: play on", side.name()));
            }
        }
        Ok(())
    }
}

/// The room's result: its game's, or how it ended outside the moves.
pub(super) fn status(st: &RoomState) -> Status {
    st.referee
        .ending()
        .map_or_else(|| st.game.status(), |e| e.status)
}

/// Whether both seats have a player (or the computer), connected or not.
pub(super) fn seated(st: &RoomState) -> bool {
    [Color::White, Color::Black].into_iter().all(|side| {
        st.computer.is_some_and(|c| c.side == side) || st.seats[index(side)].person.is_some()
    })
}

/// Runs the clock of the side to move, when it should run.
pub(super) fn run_clock(st: &mut RoomState, now: Instant) {
    // In a room made by pairing the clocks wait for both first moves.
    let first_moves = st.first_moves.is_some() && st.game.ply() < 2;
    let ongoing = status(st) == Status::Ongoing && !first_moves;
    let (to_move, seated) = (st.game.to_move(), seated(st));
    st.referee.run(to_move, seated, ongoing, now);
}

/// What becomes of a game whose side to move had a first move to make and did not
/// make it in time.
enum Overdue {
    /// A pairing's game is aborted, with why.
    Aborted(String),
    /// A tournament's game is lost by that side.
    Forfeited(Ending),
}

/// The side to move had a first move to make at `now` and did not make it in time:
/// the game is aborted, or in a tournament's room lost by that side.
fn overdue(st: &RoomState, now: Instant) -> Option<Overdue> {
    let (limit, since) = st.first_moves?;
    let late = st.game.ply() < 2
        && !st.moving
        && status(st) == Status::Ongoing
        && now.saturating_duration_since(since) >= limit;
    if !late {
        return None;
    }
    let side = st.game.to_move();
    let within = super::words_for(limit);
    Some(match st.pairing {
        Some(_) => Overdue::Forfeited(Ending {
            status: Status::won_by(side.opposite()),
            reason: format!("{} made no first move within {within}", side.name()),
        }),
        None => Overdue::Aborted(format!(
            "the game was aborted: {} made no first move within {within} (not rated)",
            side.name()
        )),
    })
}

impl Room {
    /// Looks at the flags: a side whose time ran out loses on time, connected or not;
    /// the room then saves and tells every screen. A side whose player left and was
    /// claimed against, and did not come back in time, loses the game. In a room made
    /// by pairing, a side that did not make its first move in time aborts the game:
    /// the room closes; in a tournament's room that side loses it instead. Whether the
    /// game ended.
    pub fn look_at_clock(&self) -> bool {
        let now = Instant::now();
        {
            let mut st = self.lock();
            if self.is_closed() {
                return false;
            }
            let forfeit = match overdue(&st, now) {
                Some(Overdue::Aborted(why)) => {
                    self.close(&st, why);
                    return false;
                }
                Some(Overdue::Forfeited(ending)) => Some(ending),
                None => None,
            };
            // A game over by its moves has no clock left to lose on.
            if status(&st) != Status::Ongoing {
                return false;
            }
            let flag = st.referee.flag(now).map(Ending::on_time);
            let due = forfeit.or(flag).or_else(|| st.referee.claim_due(now));
            let Some(ending) = due else {
                return false;
            };
            st.referee.end(ending, now);
        }
        self.told();
        true
    }

    /// Takes `decision` for `side` on behalf of `session`, which must hold that seat,
    /// in a game still on; the room then saves and tells every screen.
    pub fn decide(
        &self,
        session: SessionId,
        side: Color,
        decision: Decision,
    ) -> Result<(), String> {
        {
            let mut st = self.lock();
            if st.seats[index(side)].session != Some(session) {
                return Err(format!("you no longer hold {} in this room", side.name()));
            }
            if status(&st) != Status::Ongoing {
                return Err("the game is over".into());
            }
            let computer = st.computer.map(|c| c.side);
            let now = Instant::now();
            let hold = (decision == Decision::ClaimWin)
                .then(|| super::claim::hold(&st, side, self.claim_wait, now))
                .flatten();
            let st = &mut *st;
            st.referee
                .decide(side, decision, computer, hold, st.game.as_ref(), now)?;
        }
        self.told();
        Ok(())
    }

    /// After a change: on disk first, then on every screen (a screen that looks before
    /// it is woken sees the change only once it is saved).
    /// A finished game then goes to the club.
    pub(super) fn told(&self) {
        let _ = self.save();
        {
            let mut st = self.lock();
            // Written, or its failure shown on every screen: the move may be seen.
            st.before_save = None;
            st.version += 1;
            wake_all(&st);
        }
        self.keep_finished();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn game() -> Box<dyn crate::game::Playable> {
        crate::chess::Game::standard(crate::chess::GameOptions::default()).into()
    }

    #[test]
    fn the_mover_gains_the_increment_and_the_clock_waits_for_both_players() {
        let s = Duration::from_secs;
        let t0 = Instant::now();
        let mut r = Referee::new(Some("1+2".parse().unwrap()));
        r.run(Color::White, false, true, t0);
        assert_eq!(r.news().clock.unwrap().running(), None, "a seat is free");
        r.run(Color::White, true, true, t0);
        assert!(r.entered(Color::White, t0 + s(10)).is_ok());
        // The simulator's time is on nobody's clock.
        r.played(Color::White, 1);
        assert_eq!(r.record().unwrap().left, [52_000]);
        r.run(Color::Black, true, true, t0 + s(20));
        let times = r.news().clock.unwrap().times(t0 + s(30));
        assert_eq!(times.of(Color::White), s(52));
        assert_eq!(times.of(Color::Black), s(50));
        // Black's flag falls; a move entered after it loses on time.
        assert_eq!(r.flag(t0 + s(79)), None);
        assert_eq!(r.flag(t0 + s(80)), Some(Color::Black));
        let lost = r.entered(Color::Black, t0 + s(81)).unwrap_err();
        assert_eq!(lost.reason, "black lost on time");
        assert_eq!(r.ending(), Some(&lost));
        assert_eq!(r.flag(t0 + s(90)), None, "it fell once");
    }

    fn person(name: &str) -> super::super::Person {
        super::super::Person {
            name: name.into(),
            key: None,
            from: None,
            member: None,
        }
    }

    /// An empty folder for a room's file, the default limits and a new Quantum Chess game.
    fn fresh(
        name: &str,
    ) -> (
        std::path::PathBuf,
        crate::server::limits::ServerLimits,
        Box<dyn crate::game::Playable>,
    ) {
        let dir = std::env::temp_dir().join(format!("qchess-room-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let limits = crate::server::limits::ServerLimits::default();
        let board = super::super::new_game(
            crate::game::RuleSet::Quantum,
            crate::quantum::BackendKind::Sparse,
            7,
            &limits,
        )
        .expect("a new game");
        (dir, limits, board)
    }

    #[test]
    fn a_rooms_flag_falls_with_nobody_connected_and_is_saved() {
        use super::super::Want;
        use crate::game::CancelFlag;
        let (dir, limits, board) = fresh("flag");
        // 0.01 minutes: 0.6 s each, a second added per move.
        let room = Room::new("f1", board, Some(&dir)).with_clock("0.01+1".parse().ok());
        let room = std::sync::Arc::new(room);
        let wake: super::super::Wake = std::sync::Arc::new(|| {});
        room.join(1, person("ann"), Want::Any, wake.clone())
            .unwrap();
        let clock = |r: &Room| r.snapshot(1, (0, 0)).unwrap().news.clock.unwrap();
        assert_eq!(clock(&room).running(), None, "black's seat is free");
        room.join(2, person("bo"), Want::Any, wake).unwrap();
        assert_eq!(clock(&room).running(), Some(Color::White));
        room.play(
            1,
            Color::White,
            0,
            &crate::game::Move::Text("e2e4".into()),
            CancelFlag::default(),
        )
        .unwrap();
        let times = clock(&room).times(Instant::now());
        assert!(times.of(Color::White) > Duration::from_secs(1), "{times:?}");
        assert_eq!(clock(&room).running(), Some(Color::Black));
        // Bo drops: his clock runs on, and the referee sees his flag fall.
        room.leave(2);
        let until = Instant::now() + Duration::from_secs(10);
        while !room.look_at_clock() {
            assert!(Instant::now() < until, "no flag fell");
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(room.summary().status, Status::WhiteWins);
        assert!(!room.look_at_clock(), "once");
        let saved = crate::record::load(&dir.join("f1.toml")).unwrap();
        assert_eq!(saved.result, Status::WhiteWins);
        assert_eq!(saved.reason.as_deref(), Some("black lost on time"));
        let clock_saved = saved.clock.unwrap();
        assert_eq!(clock_saved.control, "0.01+1");
        assert_eq!(clock_saved.left.len(), 1);
        assert!(clock_saved.left[0] > 1_000, "{:?}", clock_saved.left);
        // Nothing more is played, and the room comes back as it ended.
        assert!(room.decide(1, Color::White, Decision::Resign).is_err());
        let back = Room::restore(&dir.join("f1.toml"), &limits).unwrap();
        assert_eq!(back.summary().status, Status::WhiteWins);
        assert_eq!(back.summary().clock, "0.01+1".parse().ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_game_resigned_before_each_side_moved_is_not_kept() {
        use super::super::Want;
        let (dir, _, board) = fresh("resign");
        let room = Room::new("z1", board, Some(&dir));
        let wake: super::super::Wake = std::sync::Arc::new(|| {});
        room.join(1, person("ann"), Want::Any, wake.clone())
            .unwrap();
        room.join(2, person("bo"), Want::Any, wake).unwrap();
        room.decide(1, Color::White, Decision::Resign).unwrap();
        room.leave(1);
        room.leave(2);
        assert!(room.closable());
        room.archive();
        assert!(
            !dir.join("finished").exists(),
            "an aborted game is not kept"
        );
        assert!(!dir.join("z1.toml").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_a_seat_decides_for_its_side() {
        use super::super::{new_game, Want};
        use crate::game::RuleSet;
        let limits = crate::server::limits::ServerLimits::default();
        let board = new_game(
            RuleSet::Quantum,
            crate::quantum::BackendKind::Sparse,
            7,
            &limits,
        );
        let room = Room::new("d1", board.unwrap(), None);
        let wake: super::super::Wake = std::sync::Arc::new(|| {});
        for (id, name) in [(1, "ann"), (2, "bo"), (3, "cy")] {
            room.join(id, person(name), Want::Any, wake.clone())
                .unwrap();
        }
        assert!(
            room.decide(3, Color::White, Decision::Resign).is_err(),
            "a watcher"
        );
        assert!(
            room.decide(2, Color::White, Decision::Resign).is_err(),
            "the other seat"
        );
        room.decide(1, Color::White, Decision::OfferDraw).unwrap();
        let snap = room.snapshot(3, (0, 0)).unwrap();
        assert_eq!(snap.news.offer, Some(Color::White));
        assert_eq!(snap.notice.1, "white offers a draw: black answers y or n");
        room.decide(2, Color::Black, Decision::AcceptDraw).unwrap();
        assert_eq!(room.summary().status, Status::Draw);
        assert_eq!(
            room.snapshot(3, (0, 0)).unwrap().news.ending,
            Some(Ending::agreed())
        );
    }

    #[test]
    fn resignations_and_draw_offers() {
        let now = Instant::now();
        let g = game();
        let mut r = Referee::new(None);
        let take = |r: &mut Referee, side, d| r.decide(side, d, None, None, g.as_ref(), now);
        assert!(take(&mut r, Color::Black, Decision::AcceptDraw).is_err());
        take(&mut r, Color::White, Decision::OfferDraw).unwrap();
        assert_eq!(r.news().offer, Some(Color::White));
        assert!(take(&mut r, Color::White, Decision::OfferDraw).is_err());
        assert!(take(&mut r, Color::White, Decision::AcceptDraw).is_err());
        take(&mut r, Color::Black, Decision::DeclineDraw).unwrap();
        assert_eq!(r.notice().1, "black declines the draw: play on");
        assert_eq!(r.news().offer, None);
        // A move lets an offer lapse.
        take(&mut r, Color::Black, Decision::OfferDraw).unwrap();
        r.played(Color::White, 1);
        assert_eq!(r.news().offer, None);
        take(&mut r, Color::White, Decision::OfferDraw).unwrap();
        take(&mut r, Color::Black, Decision::AcceptDraw).unwrap();
        assert_eq!(r.ending(), Some(&Ending::agreed()));
        let mut r = Referee::new(None);
        take(&mut r, Color::Black, Decision::Resign).unwrap();
        assert_eq!(r.ending().unwrap().status, Status::WhiteWins);
    }

    #[test]
    fn a_claim_holds_the_seat_for_its_time_then_wins_unless_it_lapses() {
        let s = Duration::from_secs;
        let t0 = Instant::now();
        let g = game();
        let mut r = Referee::new(Some("5+3".parse().unwrap()));
        let claim = |r: &mut Referee, hold| {
            r.decide(Color::White, Decision::ClaimWin, None, hold, g.as_ref(), t0)
        };
        assert_eq!(
            claim(&mut r, None),
            Err(NOTHING_TO_CLAIM.into()),
            "nobody left"
        );
        claim(&mut r, Some(s(45))).unwrap();
        assert_eq!(
            r.notice().1,
            "white claims the win: black has 45 s to come back"
        );
        assert!(claim(&mut r, Some(s(45))).is_err(), "one claim at a time");
        assert_eq!(r.claim_due(t0 + s(44)), None);
        assert_eq!(r.claim_due(t0 + s(45)), Some(Ending::left(Color::Black)));
        // Black is back in time: the claim lapses, and never falls due.
        r.lapse("black is back".into());
        assert_eq!(r.claim(), None);
        assert_eq!(r.notice().1, "black is back");
        assert_eq!(r.claim_due(t0 + s(90)), None);
        // Another ending takes a claim with it.
        claim(&mut r, Some(s(5))).unwrap();
        r.decide(Color::Black, Decision::Resign, None, None, g.as_ref(), t0)
            .unwrap();
        assert_eq!(r.claim(), None);
        assert_eq!(r.ending(), Some(&Ending::resigned(Color::Black)));
    }

    #[test]
    fn the_computer_answers_an_offer_by_its_evaluation() {
        let now = Instant::now();
        let g = game();
        for computer in [Color::White, Color::Black] {
            let mut r = Referee::new(None);
            let answer = crate::engine::draws::answer_draw(g.as_ref(), computer);
            r.decide(
                computer.opposite(),
                Decision::OfferDraw,
                Some(computer),
                None,
                g.as_ref(),
                now,
            )
            .unwrap();
            match answer {
                Ok(()) => assert_eq!(r.ending(), Some(&Ending::agreed())),
                Err(no) => {
                    assert_eq!(r.ending(), None);
                    assert_eq!(r.notice().1, no);
                }
            }
            assert_eq!(r.news().offer, None, "nothing left waiting");
        }
    }
}
