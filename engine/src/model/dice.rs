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

/// A die (`000 § Dice`). Faces have no order; a blank face is an empty list,
/// or `"blank"`.
///
/// Example: `faces = [["critical_success"], ["success", "special"], "blank", ...]`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Die {
    /// Kebab-case id; for the printed dice, the colour (`red`).
    pub id: Id,
    /// Display name (`Red die`).
    pub name: String,
    /// Exactly six faces, each the list of symbols printed on it; a blank face
    /// is `[]` or `"blank"`.
    #[serde(deserialize_with = "faces")]
    #[schemars(with = "Vec<Face>", length(min = 6, max = 6))]
    pub faces: Vec<Vec<Symbol>>,
    /// How many dice of this colour one Roll may hold at most (`000 § Dice`: one red,
    /// one green, three of each other colour).
    pub max_per_roll: u8,
    #[serde(flatten)]
    pub meta: Meta,
}

/// A die face as written: the symbols printed on it, or `"blank"` for a face
/// with none (the same as `[]`).
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Face {
    /// The symbols on the face (`["success", "special"]`).
    Symbols(Vec<Symbol>),
    /// A blank face.
    Blank(BlankFace),
}

/// The word for a face with no symbol.
#[derive(Deserialize, JsonSchema)]
enum BlankFace {
    /// `"blank"`.
    #[serde(rename = "blank")]
    Blank,
}

/// Die faces, each a list of symbols or `"blank"`.
fn faces<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Vec<Symbol>>, D::Error> {
    let faces = Vec::<Face>::deserialize(d)?;
    Ok(faces
        .into_iter()
        .map(|f| match f {
            Face::Symbols(s) => s,
            Face::Blank(BlankFace::Blank) => Vec::new(),
        })
        .collect())
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
