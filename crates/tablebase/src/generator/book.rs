//! Cutting an opening book from the tables (`Book::build`); reading one
//! is `probe::book`'s.

use crate::format::codec::ValueLayout;
use crate::generator::placement;
use crate::probe::book::{Book, BookError, BookSector, rules_text};
use crate::probe::tables::Tablebases;
use crate::sector::Sector;
use morris_rules::Rules;

impl Book {
    /// The book of every position within `plies` plies of the start under
    /// `rules`: each placement sector of the game with at least
    /// `2 Pieces - plies` stones in hand, from the tables (which must
    /// hold each whole).
    pub fn build(tables: &Tablebases, rules: &Rules, plies: u32) -> Result<Book, BookError> {
        if rules.mill_reform {
            return Err(BookError::MillReform);
        }
        let hands = 2 * rules.pieces as u32;
        let mut sectors: Vec<Sector> = placement::plan(rules)
            .sectors()
            .filter(|s| s.mine_hand as u32 + s.theirs_hand as u32 + plies >= hands)
            .collect();
        sectors.sort();
        let sectors = sectors
            .into_iter()
            .map(|sector| {
                let not_covered = || BookError::NotCovered {
                    sector,
                    ply: hands - sector.mine_hand as u32 - sector.theirs_hand as u32,
                };
                let table = tables.table(sector).ok_or_else(not_covered)?;
                let slots = table.index.size();
                let codes = (0..slots)
                    .map(|slot| table.file.code(slot).ok_or_else(not_covered))
                    .collect::<Result<Vec<u16>, BookError>>()?;
                Ok(BookSector {
                    sector,
                    index: table.index,
                    values: ValueLayout::Wdl.encode(codes.into_iter()),
                })
            })
            .collect::<Result<Vec<_>, BookError>>()?;
        Ok(Book {
            rules: rules_text(rules),
            plies,
            sectors,
        })
    }
}
