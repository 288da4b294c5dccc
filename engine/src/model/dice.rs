//! Dice, their symbols and pools (`000 § Dice`, `000 § Symbols`).

use super::*;

/// A die symbol (`000 § Symbols`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Symbol {
    /// Success: cancels a Block of the opponent; uncancelled ones inflict Damage.
    Success,
    /// Block: cancels a Success of the opponent.
    Block,
    /// Special: pays for Switches.
    Special,
    /// Critical Success: cannot be cancelled; worth 2 symbols when paying Switches (`000 § Critical Success`).
    CriticalSuccess,
    /// Critical Block: may Nullify one opposing die or added symbol, or be kept as one Block (`000 § Critical Block`).
    CriticalBlock,
}

/// A die (`000 § Dice`). Faces have no order; a blank face is an empty list.
///
/// Example: `faces = [["critical_success"], ["success", "special"], [], ...]`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Die {
    /// Kebab-case id; for the printed dice, the colour (`red`).
    pub id: Id,
    /// Display name (`Red die`).
    pub name: String,
    /// Exactly six faces, each the list of symbols printed on it.
    #[schemars(length(min = 6, max = 6))]
    pub faces: Vec<Vec<Symbol>>,
    /// How many dice of this colour one Roll may hold at most (`000 § Dice`: one red,
    /// one green, three of each other colour).
    pub max_per_roll: u8,
    #[serde(flatten)]
    pub meta: Meta,
}

/// A pool of dice plus automatically added symbols (`000 § Rolls`).
///
/// Example: `{ dice = ["red", "orange"], symbols = ["success"] }`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pool {
    /// Die ids (`red`, `green`, `orange`, `blue`, `yellow`, `black`); repeat an id for several dice.
    #[serde(default)]
    pub dice: Vec<Id>,
    /// Symbols added to every result of this pool, as if rolled (`000 § Symbols`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<Symbol>,
}
