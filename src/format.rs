//! Number formatting shared by the rules' reports and the panes.

use crate::quantum::CERTAIN_EPS;

/// A probability as a whole percentage that never says 0 or 100 unless it is.
pub fn percent(p: f64) -> String {
    if p >= 1.0 - CERTAIN_EPS {
        return "100".into();
    }
    if p <= CERTAIN_EPS {
        return "0".into();
    }
    match (p * 100.0).round() as i64 {
        0 => "<1".into(),
        100 => "99".into(),
        n => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_never_round_to_certainty() {
        assert_eq!(percent(1.0), "100");
        assert_eq!(percent(0.999), "99");
        assert_eq!(percent(0.5), "50");
        assert_eq!(percent(0.001), "<1");
        assert_eq!(percent(0.0), "0");
    }
}
