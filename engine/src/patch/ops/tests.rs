//! The undo of each op takes it back out exactly (key order included), and
//! the running size of the entry follows each op.

use super::*;
use serde_json::json;

/// An op as a patch file writes it (its `from` is given resolved, to `run`).
fn op(verb: PatchVerb, path: &str, value: Option<Value>) -> PatchOp {
    PatchOp { op: verb, path: path.into(), value, from: None, expect: None }
}

fn entry() -> Value {
    json!({
        "id": "la-duelista",
        "name": "La Duelista",
        "speed": 4,
        "defense": { "dice": ["blue", "black"], "note": "x" },
        "actions": [
            { "id": "a", "cost": 1 },
            { "id": "b", "cost": 2 },
            { "id": "c", "cost": 3 }
        ],
        "tags": { "first": 1, "second": 2, "third": 3 }
    })
}

/// Apply `o` at `pointer` (and `from`) as `apply_ops` does; return the
/// undo, the size change and the entry after.
fn run(value: &Value, o: &PatchOp, pointer: &str, from: Option<&str>) -> Option<(Value, Undo, isize)> {
    let mut v = value.clone();
    let mut diags = Vec::new();
    let at = |_: &str| None;
    let before = v.pointer(pointer).cloned();
    let shape = Shape::before(o, pointer, from, &v);
    apply_op(o, "character:la-duelista", pointer, from, &mut v, &at, &mut diags)?;
    let (u, delta) = shape.after(o, pointer.to_string(), from.map(String::from), before, &v);
    Some((v, u, delta))
}

#[test]
fn every_op_is_undone_exactly_and_its_size_change_is_counted() {
    use PatchVerb::*;
    let cases: Vec<(PatchOp, &str, Option<&str>)> = vec![
        (op(Replace, "speed", Some(json!(12345))), "/speed", None),
        (op(Replace, "defense", Some(json!({ "dice": [] }))), "/defense", None),
        (op(Add, "actions[-]", Some(json!({ "id": "d", "cost": 4 }))), "/actions/-", None),
        (op(Add, "actions[0]", Some(json!({ "id": "z", "cost": 0 }))), "/actions/0", None),
        (op(Add, "range", Some(json!({ "min": 1, "max": 3 }))), "/range", None),
        (op(Add, "speed", Some(json!(5))), "/speed", None),
        (op(Add, "tags.zeroth", Some(json!(0))), "/tags/zeroth", None),
        (op(Remove, "name", None), "/name", None),
        (op(Remove, "tags.first", None), "/tags/first", None),
        (op(Remove, "tags.third", None), "/tags/third", None),
        (op(Remove, "actions[1]", None), "/actions/1", None),
        (op(Merge, "defense", Some(json!({ "note": "longer note", "extra": true }))), "/defense", None),
        (op(Copy, "tags.copy", None), "/tags/copy", Some("/tags/first")),
        (op(Copy, "tags.second", None), "/tags/second", Some("/tags/first")),
        (op(Copy, "actions[-]", None), "/actions/-", Some("/actions/0")),
        (op(Move, "tags.moved", None), "/tags/moved", Some("/tags/first")),
        (op(Move, "tags.third", None), "/tags/third", Some("/tags/first")),
        (op(Move, "tags.first", None), "/tags/first", Some("/tags/third")),
        (op(Move, "tags.second", None), "/tags/second", Some("/tags/second")),
        (op(Move, "actions[-]", None), "/actions/-", Some("/actions/0")),
        (op(Move, "actions[0]", None), "/actions/0", Some("/actions/2")),
        (op(Test, "speed", Some(json!(4))), "/speed", None),
    ];
    let original = entry();
    let text = serde_json::to_string(&original).unwrap();
    for (o, pointer, from) in &cases {
        let (after, undo, delta) =
            run(&original, o, pointer, *from).unwrap_or_else(|| panic!("{:?} {pointer} failed", o.op));
        let grew = json_size(&after) as isize - json_size(&original) as isize;
        if o.op == Move {
            assert!(delta >= grew, "{:?} {pointer}: counted {delta}, grew {grew}", o.op);
        } else {
            assert_eq!(delta, grew, "{:?} {pointer}: the size change", o.op);
        }
        let mut back = after;
        undo.apply(&mut back);
        assert_eq!(serde_json::to_string(&back).unwrap(), text, "{:?} {pointer} (from {from:?}) undone", o.op);
    }
}

/// Several ops undone in reverse order give the entry back.
#[test]
fn a_sequence_of_ops_is_undone_in_reverse() {
    use PatchVerb::*;
    let steps: Vec<(PatchOp, &str, Option<&str>)> = vec![
        (op(Remove, "tags.first", None), "/tags/first", None),
        (op(Add, "tags.first", Some(json!("back"))), "/tags/first", None),
        (op(Move, "tags.third", None), "/tags/third", Some("/tags/second")),
        (op(Add, "actions[-]", Some(json!({ "id": "d" }))), "/actions/-", None),
        (op(Move, "actions[1]", None), "/actions/1", Some("/actions/3")),
        (op(Remove, "actions[0]", None), "/actions/0", None),
    ];
    let original = entry();
    let mut v = original.clone();
    let mut undo = Vec::new();
    for (o, pointer, from) in &steps {
        let (after, u, _) = run(&v, o, pointer, *from).unwrap_or_else(|| panic!("{:?} {pointer} failed", o.op));
        v = after;
        undo.push(u);
    }
    for u in undo.into_iter().rev() {
        u.apply(&mut v);
    }
    assert_eq!(serde_json::to_string(&v).unwrap(), serde_json::to_string(&original).unwrap());
}
