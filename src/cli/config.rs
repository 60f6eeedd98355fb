//! The `qchess config` and `qchess themes` commands: where the configuration file is,
//! writing a commented default, and the list of colour themes.

use crate::cli::{warn, write_stdout, Done, Failure, Outcome};
use crate::config::dirs::{config_dir, CONFIG_FILE, THEMES_DIR};
use crate::config::file::Config;
use crate::config::themes::{Catalogue, Source};
use crate::config::ConfigError;
use crate::style::color::{ColorChoice, Paint, Tier};
use crate::style::theme::Theme;
use crossterm::style::{ResetColor, SetBackgroundColor};
use crossterm::Command;
use ratatui::backend::IntoCrossterm;
use std::io::IsTerminal;

/// What `qchess config` does.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum ConfigCommand {
    /// Prints the path of the configuration file (which need not exist yet).
    Path,
    /// Writes a configuration file with every setting at its default, explained.
    Init {
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
    },
}

/// Runs `qchess config`.
pub fn run(cmd: ConfigCommand) -> Outcome {
    config(cmd).map(Done::Print).map_err(Failure::new)
}

/// What `qchess config` prints.
pub fn config(cmd: ConfigCommand) -> Result<String, ConfigError> {
    let path = config_dir()?.join(CONFIG_FILE);
    match cmd {
        ConfigCommand::Path => Ok(format!("{}\n", path.display())),
        ConfigCommand::Init { force } => {
            Config::write_default(&path, force)?;
            Ok(format!("wrote {}\n", path.display()))
        }
    }
}

/// Options of `qchess themes`.
#[derive(clap::Args, Debug, Clone)]
pub struct ThemesArgs {
    /// Colour swatches: auto (when the output is a terminal, in the colours it shows),
    /// truecolor, 256, 16 or none.
    #[arg(long, default_value = "auto", value_parser = crate::cli::color_flag())]
    pub color: ColorChoice,
}

/// The list of themes, and the user themes that could not be read.
#[derive(Debug)]
pub struct Listing {
    /// One line per theme: name, swatch (when colours are on) and where it comes from.
    pub text: String,
    /// The problems of broken user themes.
    pub broken: Vec<ConfigError>,
}

/// Runs `qchess themes`: the list, then the problems of the broken themes (exit code 2
/// when there are any).
pub fn run_themes(args: &ThemesArgs) -> Outcome {
    let listing = themes(args).map_err(Failure::new)?;
    if listing.broken.is_empty() {
        return Ok(Done::Print(listing.text));
    }
    if let Err(f) = write_stdout(&listing.text) {
        warn(f.message);
    }
    for e in &listing.broken {
        warn(e);
    }
    Ok(Done::Exit(2))
}

/// The list of themes `qchess themes` prints.
pub fn themes(args: &ThemesArgs) -> Result<Listing, ConfigError> {
    let themes_dir = config_dir()?.join(THEMES_DIR);
    let catalogue = Catalogue::with_user_dir(&themes_dir)?;
    let tier = match args.color {
        ColorChoice::Auto if !std::io::stdout().is_terminal() => Tier::None,
        choice => choice.resolve(|k| std::env::var(k).ok()),
    };
    Ok(listing(&catalogue, tier))
}

/// The listing of `catalogue`, with swatches in `tier`.
pub fn listing(catalogue: &Catalogue, tier: Tier) -> Listing {
    let width = catalogue
        .entries()
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    let mut broken = Vec::new();
    for entry in catalogue.entries() {
        let origin = match &entry.source {
            Source::BuiltIn(_) => "built-in".to_string(),
            Source::File(path) if entry.replaces_built_in => {
                format!("{} (replaces the built-in)", path.display())
            }
            Source::File(path) => path.display().to_string(),
        };
        let swatch = match entry.load() {
            Ok(theme) => swatch(&theme, tier),
            Err(e) => {
                broken.push(e);
                "(cannot be read, see below)".to_string()
            }
        };
        let swatch = if swatch.is_empty() {
            swatch
        } else {
            format!("{swatch}  ")
        };
        text += &format!("{:width$}  {swatch}{origin}\n", entry.name);
    }
    Listing { text, broken }
}

/// Every colour of `theme` as a two-cell block in `tier`; empty when colours are off.
pub fn swatch(theme: &Theme, tier: Tier) -> String {
    let paint = Paint::new(theme.clone(), tier);
    let mut out = String::new();
    for (_, rgb) in theme.entries() {
        let Some(color) = paint.color(rgb) else {
            return String::new();
        };
        // Writing to a String cannot fail.
        let _ = SetBackgroundColor(color.into_crossterm()).write_ansi(&mut out);
        out.push_str("  ");
    }
    let _ = ResetColor.write_ansi(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swatches_follow_the_tier() {
        let t = Theme::default();
        assert_eq!(swatch(&t, Tier::None), "");
        let true_color = swatch(&t, Tier::TrueColor);
        assert!(
            true_color.starts_with("\x1b[48;2;175;135;95m  "),
            "{true_color:?}"
        );
        assert!(true_color.ends_with("\x1b[0m"), "{true_color:?}");
        assert_eq!(true_color.matches("  ").count(), 16);
        let indexed = swatch(&t, Tier::Ansi256);
        assert!(indexed.starts_with("\x1b[48;5;137m"), "{indexed:?}");
    }

    #[test]
    fn listing_without_colour_is_plain_text() {
        let l = listing(&Catalogue::built_in(), Tier::None);
        assert!(l.broken.is_empty());
        assert_eq!(
            l.text,
            "classic        built-in\n\
             dark           built-in\n\
             high-contrast  built-in\n\
             mono           built-in\n"
        );
    }
}
