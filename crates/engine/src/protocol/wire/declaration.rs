//! `option name <Name> type <kind> ...`: the line an engine announces each
//! of its options with after `uci`. The engine writes its own through
//! `Display`; the match runner reads another engine's with `parse`, to
//! learn which strength options it has and their ranges.

use std::fmt;

/// One announced option.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Declaration {
    /// The name, which may contain spaces (`Move Overhead`).
    pub name: String,
    /// Its type, with the default and range or choices the line gives.
    pub kind: DeclaredKind,
}

/// An announced option's type (the word after `type`) and what its line
/// says of its values.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DeclaredKind {
    /// `type button`: an action, set without a value.
    Button,
    /// `type check default <true|false>`.
    Check {
        /// The value until set (read as false unless the word is `true`).
        default: bool,
    },
    /// `type spin default N min N max N`: a whole number in a range.
    Spin {
        /// The value until set.
        default: i64,
        /// The smallest value it takes.
        min: i64,
        /// The largest value it takes.
        max: i64,
    },
    /// `type string default <text>`: free text.
    Text {
        /// The value until set: the words after `default`, joined by
        /// single spaces (empty when there are none).
        default: String,
    },
    /// `type combo default <value> var <value> ...`: one of a list.
    Combo {
        /// The value until set.
        default: String,
        /// The values it takes, one word after each `var`, in the order
        /// declared.
        vars: Vec<String>,
    },
}

impl Declaration {
    /// Reads a declaration; `None` for any other line, or one whose kind
    /// or numbers cannot be read (such an option is simply left alone).
    pub fn parse(line: &str) -> Option<Declaration> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
            return None;
        }
        let type_at = words.iter().position(|w| *w == "type")?;
        if type_at < 3 {
            return None;
        }
        let name = words[2..type_at].join(" ");
        let kind = *words.get(type_at + 1)?;
        let rest = &words[type_at + 2..];
        // The words after `key`, up to the next key, joined.
        let field = |key: &str| -> Option<String> {
            let at = rest.iter().position(|w| *w == key)?;
            let value: Vec<&str> = rest[at + 1..]
                .iter()
                .take_while(|w| !matches!(**w, "default" | "min" | "max" | "var"))
                .copied()
                .collect();
            Some(value.join(" "))
        };
        let number = |key: &str| field(key)?.parse::<i64>().ok();
        let kind = match kind {
            "button" => DeclaredKind::Button,
            "check" => DeclaredKind::Check {
                default: field("default")? == "true",
            },
            "spin" => DeclaredKind::Spin {
                default: number("default")?,
                min: number("min")?,
                max: number("max")?,
            },
            "string" => DeclaredKind::Text {
                default: field("default").unwrap_or_default(),
            },
            "combo" => DeclaredKind::Combo {
                default: field("default")?,
                vars: rest
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| **w == "var")
                    .filter_map(|(i, _)| rest.get(i + 1).map(|v| v.to_string()))
                    .collect(),
            },
            _ => return None,
        };
        Some(Declaration { name, kind })
    }
}

impl fmt::Display for Declaration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            DeclaredKind::Button => write!(f, "button"),
            DeclaredKind::Check { default } => write!(f, "check default {default}"),
            DeclaredKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            DeclaredKind::Text { default } => write!(f, "string default {default}"),
            DeclaredKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(name: &str, kind: DeclaredKind) -> Declaration {
        Declaration {
            name: name.to_string(),
            kind,
        }
    }

    #[test]
    fn written_lines_read_back() {
        for d in [
            decl("Clear Hash", DeclaredKind::Button),
            decl("Ponder", DeclaredKind::Check { default: false }),
            decl(
                "Move Overhead",
                DeclaredKind::Spin {
                    default: 10,
                    min: 0,
                    max: 5000,
                },
            ),
            decl(
                "TablebasePath",
                DeclaredKind::Text {
                    default: "/tmp/tables".into(),
                },
            ),
            decl(
                "Variant",
                DeclaredKind::Combo {
                    default: "nine".into(),
                    vars: vec!["nine".into(), "twelve".into()],
                },
            ),
        ] {
            assert_eq!(Declaration::parse(&d.to_string()), Some(d));
        }
    }

    #[test]
    fn other_engines_declarations_are_read() {
        assert_eq!(
            Declaration::parse("option name SkillLevel type spin default 1 min 0 max 30"),
            Some(decl(
                "SkillLevel",
                DeclaredKind::Spin {
                    default: 1,
                    min: 0,
                    max: 30
                }
            ))
        );
        assert_eq!(
            Declaration::parse("option name DrawOnHumanExperience type check default true"),
            Some(decl(
                "DrawOnHumanExperience",
                DeclaredKind::Check { default: true }
            ))
        );
        for other in [
            "id name x",
            "option name",
            "option name type spin",
            "option name Hash type spin default big min 1 max 2",
            "option name X type wheel",
            "uciok",
        ] {
            assert_eq!(Declaration::parse(other), None, "{other}");
        }
    }
}
