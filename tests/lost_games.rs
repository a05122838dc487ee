//! The folders of games this engine lost to a stronger reference (`tests/data/losses*`): every
//! file is a well-formed record that `Connect6` lost, and each folder holds the games its
//! README counts, so a game dropped or mangled in a copy fails here rather than silently
//! shrinking what `analyse` and the defence suite are measured on.

mod common;

use connect6::record::{Record, RecordResult};

/// The folders, with the number of games each README describes.
const FOLDERS: [(&str, usize); 3] = [
    ("losses", 36),
    ("losses-6062084", 18),
    ("losses-69f7f1b", 27),
];

#[test]
fn every_lost_game_is_a_record_connect6_lost() {
    for (name, count) in FOLDERS {
        let dir = common::data_dir(name);
        let mut games = 0;
        for entry in std::fs::read_dir(&dir)
            .expect("a readable folder")
            .flatten()
        {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "txt") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let rec = Record::parse(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let loser = match rec.result {
                RecordResult::BlackWins => &rec.white,
                RecordResult::WhiteWins => &rec.black,
                RecordResult::Draw => panic!("{path:?}: a draw in a folder of lost games"),
            };
            assert_eq!(loser, "Connect6", "{path:?}: the loser is {loser}");
            games += 1;
        }
        assert_eq!(games, count, "games in {}", dir.display());
    }
}
