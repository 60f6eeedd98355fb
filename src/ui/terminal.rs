//! The terminal side: setup and restore (on quit, error, panic, Ctrl-Z and the signals
//! SIGTERM, SIGHUP, SIGINT, SIGQUIT and SIGTSTP) and the event loop, which sleeps in the
//! kernel until a key, a mouse event, a paste, a resize or a signal comes.

use super::app::App;
use super::input::tty_input::{self, Input, InputWatch};
use super::input::Press;
use super::work::Exec;
use crossterm::cursor::Show;
use crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, Event, KeyCode,
    KeyEventKind, KeyModifiers,
};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Size;
use ratatui::{Frame, Terminal};
use std::io::{self, stdout, IsTerminal, Stdout};

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Standard input or output is not a terminal (`ssh host qchess` without `-t`, input
/// from a file or `/dev/null`, output into a pipe).
#[derive(Debug, thiserror::Error)]
#[error("the game needs a terminal on standard input and output (with ssh, use ssh -t); `qchess analyze` plays moves without one")]
pub struct NoTerminal;

/// Fails with [`NoTerminal`] unless both standard input and standard output are terminals.
pub fn require_terminal() -> Result<(), NoTerminal> {
    if io::stdin().is_terminal() && io::stdout().is_terminal() {
        Ok(())
    } else {
        Err(NoTerminal)
    }
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The player quit.
    Quit,
    /// A signal (SIGTERM, SIGHUP, SIGINT or SIGQUIT) with this number stopped it; the
    /// terminal's input at end-of-file counts as SIGHUP.
    Signal(i32),
}

/// How often the loop wakes up without input to look for signals: the only wake-ups
/// while idle (crossterm's poll sleeps in the kernel until then).
const SIGNAL_CHECK: Duration = Duration::from_millis(500);

/// Something the terminal loop can show and drive: the quantum game, a variant, the
/// Skat lab.
pub trait Screen {
    /// Draws the whole screen, and keeps what the drawing learned (where things went,
    /// for the mouse; how many pages the help needed).
    fn draw(&mut self, f: &mut Frame);
    /// Reacts to one terminal event: a key press, a mouse event, a paste or a resize.
    fn handle_event(&mut self, event: Event);
    /// Whether the player asked to leave.
    fn should_quit(&self) -> bool;
    /// Runs long work (moves, analyses) here or on worker threads; the terminal loop
    /// asks for worker threads.
    fn set_exec(&mut self, exec: Exec);
    /// Takes in background work that finished. True when the screen should be drawn
    /// again (the work finished, or its busy line's time moved on).
    fn tick(&mut self) -> bool;
    /// Whether background work is running (the loop then looks for its end often).
    fn working(&self) -> bool;
    /// The smallest terminal the screen draws in; below it a note says so and only
    /// quitting works.
    fn min_size(&self) -> (u16, u16) {
        super::layout::COMPACT_SIZE
    }
}

impl Screen for App {
    fn draw(&mut self, f: &mut Frame) {
        let drawn = super::draw(f, self);
        self.took(drawn);
    }
    fn handle_event(&mut self, event: Event) {
        App::handle_event(self, event)
    }
    fn should_quit(&self) -> bool {
        App::should_quit(self)
    }
    fn set_exec(&mut self, exec: Exec) {
        App::set_exec(self, exec)
    }
    fn tick(&mut self) -> bool {
        App::tick(self)
    }
    fn working(&self) -> bool {
        App::working(self)
    }
}

/// How the terminal is set up for a screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TerminalOptions {
    /// Capture the mouse (SGR reports of clicks, drags and the wheel).
    pub mouse: bool,
}

/// The signals that end the game (the terminal is restored first).
#[cfg(unix)]
const ENDING: [i32; 4] = [
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGQUIT,
];
/// See the Unix version.
#[cfg(not(unix))]
const ENDING: [i32; 2] = [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT];

/// What the signal handlers have seen, for the event loop to act on.
struct Signals {
    /// The number of an ending signal, 0 while none came.
    ending: Arc<AtomicUsize>,
    /// SIGTSTP came (`kill -TSTP`): suspend as Ctrl-Z does.
    suspend: Arc<AtomicBool>,
}

impl Signals {
    fn register() -> io::Result<Signals> {
        let ending = Arc::new(AtomicUsize::new(0));
        for sig in ENDING {
            signal_hook::flag::register_usize(sig, Arc::clone(&ending), sig as usize)?;
        }
        let suspend = Arc::new(AtomicBool::new(false));
        #[cfg(unix)]
        signal_hook::flag::register(signal_hook::consts::SIGTSTP, Arc::clone(&suspend))?;
        watch_signals(&ENDING)?;
        Ok(Signals { ending, suspend })
    }

    fn ended(&self) -> Option<i32> {
        match self.ending.load(Ordering::Relaxed) {
            0 => None,
            sig => Some(sig as i32),
        }
    }

    fn take_suspend(&self) -> bool {
        self.suspend.swap(false, Ordering::Relaxed)
    }
}

/// Runs any [`Screen`] in the terminal until it quits or a signal (SIGTERM, SIGHUP,
/// SIGINT, SIGQUIT) stops it. Ctrl-Z (and SIGTSTP) suspends it with the terminal
/// restored; `fg` brings it back redrawn. The terminal is given back in its normal
/// state on every way out, panics included.
pub fn run_screen(screen: &mut impl Screen, opts: TerminalOptions) -> io::Result<Ended> {
    let signals = Signals::register()?;
    install_panic_hook();
    let input = InputWatch::new()?;
    let terminal = setup(opts)?;
    let mut console = Local {
        terminal,
        signals,
        opts,
        input,
    };
    let result = drive(&mut console, screen);
    // ratatui shows a hidden cursor when its terminal is dropped and, when it cannot,
    // prints the error to standard error, which panics on a terminal that has gone (a
    // dropped connection): the cursor is shown here, and a terminal that refuses is
    // not dropped (the process ends soon after).
    if console.terminal.show_cursor().is_err() {
        std::mem::forget(console.terminal);
    }
    restore();
    result
}

/// What a [`Console`] brought while the loop waited.
#[derive(Debug)]
pub enum Woke {
    /// A terminal event: a key, the mouse, a paste, a resize.
    Event(Event),
    /// Nothing from the terminal: time passed, or news for the screen's
    /// [`Screen::tick`].
    Nothing,
    /// Suspend (SIGTSTP).
    Suspend,
    /// The run is over (a signal, a closed connection).
    Stop(Ended),
}

/// Where a screen runs: the local terminal, or (`qchess serve`) one SSH channel. The
/// loop ([`drive`]) is the same for both; only the transport differs.
pub trait Console {
    /// Waits up to `wait` for an event or news.
    fn wait(&mut self, wait: Duration) -> io::Result<Woke>;
    /// The size of the terminal.
    fn size(&self) -> io::Result<Size>;
    /// Draws one frame.
    fn draw(&mut self, render: &mut dyn FnMut(&mut Frame)) -> io::Result<()>;
    /// Ctrl-Z: gives the terminal back until the process continues (where there is no
    /// job control, nothing happens).
    fn suspend(&mut self) -> io::Result<()>;
}

/// The most events taken in before the screen is drawn again (a paste sent as keys, a
/// burst of mouse reports): one drawing for all of them, but never a stalled screen.
const BATCH: usize = 256;

/// Runs `screen` on `console` until the screen quits or the console stops: events go
/// to the screen (every event already waiting is taken before one drawing), background
/// work is looked after, and the screen is drawn when something changed.
pub fn drive(console: &mut impl Console, screen: &mut impl Screen) -> io::Result<Ended> {
    screen.set_exec(Exec::Background);
    console.draw(&mut |f| screen.draw(f))?;
    loop {
        let wait = if screen.working() {
            WORK_CHECK
        } else {
            SIGNAL_CHECK
        };
        let mut woke = console.wait(wait)?;
        let mut redraw = false;
        for _ in 0..BATCH {
            match woke {
                Woke::Nothing => break,
                Woke::Stop(ended) => return Ok(ended),
                Woke::Suspend => {
                    console.suspend()?;
                    redraw = true;
                }
                Woke::Event(ev) => {
                    let size = console.size()?;
                    let (w, h) = screen.min_size();
                    match route(&ev, size.width < w || size.height < h) {
                        Route::Screen => {
                            screen.handle_event(ev);
                            redraw = true;
                        }
                        Route::Suspend => {
                            console.suspend()?;
                            redraw = true;
                        }
                        Route::Quit => return Ok(Ended::Quit),
                        Route::Ignore => {}
                    }
                    if screen.should_quit() {
                        return Ok(Ended::Quit);
                    }
                }
            }
            woke = console.wait(Duration::ZERO)?;
        }
        redraw |= screen.tick();
        if screen.should_quit() {
            return Ok(Ended::Quit);
        }
        if redraw {
            console.draw(&mut |f| screen.draw(f))?;
        }
    }
}

/// The terminal qchess runs in, with the signals that end or suspend it.
struct Local {
    terminal: Terminal<CrosstermBackend<Stdout>>,
    signals: Signals,
    opts: TerminalOptions,
    input: InputWatch,
}

impl Console for Local {
    fn wait(&mut self, wait: Duration) -> io::Result<Woke> {
        // A signal ends the game even mid-move: the autosave already holds the last
        // completed move, and the move in progress is dropped.
        if let Some(sig) = self.signals.ended() {
            return Ok(Woke::Stop(Ended::Signal(sig)));
        }
        if self.signals.take_suspend() {
            return Ok(Woke::Suspend);
        }
        // crossterm is asked only when its input is not at end-of-file, where its read
        // would never return (see `tty_input`); a hangup just before it is left to the
        // watchdog.
        let closed = Woke::Stop(Ended::Signal(tty_input::HANGUP));
        if self.input.wait(Duration::ZERO)? == Input::Closed {
            return Ok(closed);
        }
        if !event::poll(Duration::ZERO)? {
            if self.input.wait(wait)? == Input::Closed {
                return Ok(closed);
            }
            if !event::poll(Duration::ZERO)? {
                return Ok(Woke::Nothing);
            }
        }
        Ok(Woke::Event(event::read()?))
    }

    fn size(&self) -> io::Result<Size> {
        self.terminal.size()
    }

    fn draw(&mut self, render: &mut dyn FnMut(&mut Frame)) -> io::Result<()> {
        self.terminal.draw(|f| render(f)).map(|_| ())
    }

    fn suspend(&mut self) -> io::Result<()> {
        suspend(&mut self.terminal, self.opts)
    }
}

/// How often the loop looks for the end of background work (and redraws its time).
const WORK_CHECK: Duration = Duration::from_millis(25);

/// How long the event loop gets to notice a signal before the watchdog ends the process.
const SIGNAL_GRACE: Duration = Duration::from_millis(1500);

/// Ends the process shortly after an ending signal even when the event loop cannot see
/// the flag: its writes are stuck on a terminal nobody reads, or the input ended in the
/// instant between the loop's look at it and crossterm's read, which then keeps reading
/// without returning (see `tty_input`). The game is autosaved after every
/// move, so nothing is lost; the terminal is restored as far as it still exists, and the
/// autosave's lock file is removed (nothing is dropped on this way out).
fn watch_signals(sigs: &[i32]) -> io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new(sigs)?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                std::thread::sleep(SIGNAL_GRACE);
                crate::record::remove_held_lock_files();
                // Restoring writes to the terminal, which blocks while its output is
                // stuck (nobody reads it): the process ends all the same.
                let (done, restored) = std::sync::mpsc::channel();
                let _ = std::thread::Builder::new()
                    .name("restore".into())
                    .spawn(move || {
                        restore();
                        let _ = done.send(());
                    });
                let _ = restored.recv_timeout(SIGNAL_GRACE);
                std::process::exit(128 + sig);
            }
        })?;
    Ok(())
}

/// Mouse reports of button presses, releases and drags (not of every motion) in the SGR
/// encoding.
struct CaptureMouse;

impl crossterm::Command for CaptureMouse {
    fn write_ansi(&self, f: &mut impl std::fmt::Write) -> std::fmt::Result {
        // 1000: press and release (the wheel too); 1002: motion while a button is held;
        // 1006: SGR coordinates (any terminal size).
        f.write_str("\x1b[?1000h\x1b[?1002h\x1b[?1006h")
    }

    #[cfg(windows)]
    fn execute_winapi(&self) -> io::Result<()> {
        crossterm::event::EnableMouseCapture.execute_winapi()
    }

    #[cfg(windows)]
    fn is_ansi_code_supported(&self) -> bool {
        false
    }
}

/// Raw mode, then [`take_terminal`].
fn enter(opts: TerminalOptions) -> io::Result<()> {
    enable_raw_mode()?;
    take_terminal(&mut stdout(), opts)
}

/// Writes what sets a terminal up for a screen: the alternate screen, bracketed paste
/// and (when asked) mouse capture. Raw mode is the caller's (over SSH, the client's).
pub fn take_terminal(w: &mut impl io::Write, opts: TerminalOptions) -> io::Result<()> {
    execute!(w, EnterAlternateScreen, EnableBracketedPaste)?;
    if opts.mouse {
        execute!(w, CaptureMouse)?;
    }
    Ok(())
}

/// Writes what gives a terminal back after [`take_terminal`]: no mouse capture or
/// bracketed paste, the main screen, the cursor shown.
pub fn give_back_terminal(w: &mut impl io::Write) -> io::Result<()> {
    execute!(
        w,
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        Show
    )
}

fn setup(opts: TerminalOptions) -> io::Result<Terminal<CrosstermBackend<Stdout>>> {
    let t = enter(opts).and_then(|_| Terminal::new(CrosstermBackend::new(stdout())));
    if t.is_err() {
        restore();
    }
    t
}

/// Puts the terminal back: raw mode off, no mouse capture or bracketed paste, main
/// screen, cursor shown. Safe to call more than once.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = give_back_terminal(&mut stdout());
}

/// Ctrl-Z: gives the terminal back, stops the process as the shell expects, and on `fg`
/// takes the terminal again and redraws everything.
#[cfg(unix)]
fn suspend(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    opts: TerminalOptions,
) -> io::Result<()> {
    restore();
    // SIGTSTP has a handler (it sets the flag), so stop with SIGSTOP, whose default
    // action cannot be changed; the shell sees the job stopped and `fg` continues it.
    signal_hook::low_level::raise(signal_hook::consts::SIGSTOP)?;
    enter(opts)?;
    // The whole screen cleared and drawn again. Not `Terminal::clear`, which since ratatui
    // 0.30 first asks the terminal where its cursor is, and fails when no answer comes.
    let area = terminal.get_frame().area();
    terminal.resize(area)
}

/// Without job control there is nothing to suspend to.
#[cfg(not(unix))]
fn suspend(
    _terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    _opts: TerminalOptions,
) -> io::Result<()> {
    Ok(())
}

/// Restores the terminal before the default panic message is printed.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // A worker's panic is caught and shown on the screen, which goes on.
        if std::thread::current().name() == Some(super::work::WORKER_THREAD) {
            return;
        }
        restore();
        previous(info);
    }));
}

/// What the loop does with one terminal event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Hand it to the screen.
    Screen,
    /// Ctrl-Z: suspend.
    Suspend,
    /// Leave at once (`q` or Ctrl-C while the terminal is too small).
    Quit,
    /// Nothing (a key release; any other key while the terminal is too small).
    Ignore,
}

/// Where one terminal event goes. While the terminal is `too_small` for the screen, only
/// `q` and Ctrl-C (quit) and Ctrl-Z act, and resizes still reach the screen.
pub fn route(event: &Event, too_small: bool) -> Route {
    match event {
        Event::Key(k) if k.kind == KeyEventKind::Release => Route::Ignore,
        Event::Key(k)
            if k.code == KeyCode::Char('z') && k.modifiers.contains(KeyModifiers::CONTROL) =>
        {
            Route::Suspend
        }
        Event::FocusGained | Event::FocusLost => Route::Ignore,
        Event::Resize(..) => Route::Screen,
        Event::Key(k) if too_small => match super::input::press(*k) {
            Press::Interrupt | Press::Key(KeyCode::Char('q')) => Route::Quit,
            _ => Route::Ignore,
        },
        _ if too_small => Route::Ignore,
        _ => Route::Screen,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyEvent, MouseButton, MouseEvent, MouseEventKind};

    #[test]
    fn events_are_routed() {
        let key = |code, m| Event::Key(KeyEvent::new(code, m));
        let ctrl_z = key(KeyCode::Char('z'), KeyModifiers::CONTROL);
        let ctrl_c = key(KeyCode::Char('c'), KeyModifiers::CONTROL);
        let q = key(KeyCode::Char('q'), KeyModifiers::NONE);
        let z = key(KeyCode::Char('z'), KeyModifiers::NONE);
        let mut release = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        let click = Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: 3,
            row: 4,
            modifiers: KeyModifiers::NONE,
        });
        let paste = Event::Paste("e2e4".into());
        let resize = Event::Resize(80, 24);
        for small in [false, true] {
            assert_eq!(route(&ctrl_z, small), Route::Suspend);
            assert_eq!(route(&Event::Key(release), small), Route::Ignore);
            assert_eq!(route(&resize, small), Route::Screen);
        }
        for ev in [&z, &q, &ctrl_c, &click, &paste] {
            assert_eq!(route(ev, false), Route::Screen, "{ev:?}");
        }
        // Too small: nothing acts on the game; q and Ctrl-C leave.
        assert_eq!(route(&q, true), Route::Quit);
        assert_eq!(route(&ctrl_c, true), Route::Quit);
        for ev in [&z, &click, &paste, &key(KeyCode::Enter, KeyModifiers::NONE)] {
            assert_eq!(route(ev, true), Route::Ignore, "{ev:?}");
        }
    }
}
