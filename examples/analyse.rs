// Temporary: for records where NAME lost, find its first blunder (allowing an opponent VCDT) and missed VCDT wins.
use connect6::board::{Board, Color};
use connect6::coord::Turn;
use connect6::referee::{Record, RecordResult};
use connect6::solver::{SolveLimits, Solver, Verdict};
fn main() {
    let dir = std::env::args().nth(1).unwrap();
    let name = std::env::args().nth(2).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        let rec = Record::parse(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let me = if rec.black == name {
            Color::Black
        } else {
            Color::White
        };
        let lost = match rec.result {
            RecordResult::BlackWins => me == Color::White,
            RecordResult::WhiteWins => me == Color::Black,
            _ => false,
        };
        if !lost {
            continue;
        }
        let cells: Vec<_> = rec.moves.iter().map(|m| m.cell).collect();
        let mut b = Board::new();
        let mut i = 0;
        let mut turn_no = 0;
        let mut notes = vec![];
        let mut s = Solver::new(1 << 16);
        let lim = SolveLimits::new(8, 300_000, None);
        while i < cells.len() {
            let n = if i == 0 { 1 } else { 2.min(cells.len() - i) };
            let t = if n == 1 {
                Turn::one(cells[i])
            } else {
                Turn::two(cells[i], cells[i + 1])
            };
            let mover = b.side_to_move();
            if mover == me && turn_no >= 3 {
                let own = s.solve(&b, lim);
                let before = s.solve_for(&b, me.other(), lim);
                let mut a = b.clone();
                a.play_turn(&t).unwrap();
                let after = if a.is_over() {
                    Verdict::NoWin
                } else {
                    s.solve(&a, lim)
                };
                if let Verdict::Win(w) = own {
                    let n8 = s.nodes();
                    let mut s2 = Solver::new(1 << 16);
                    let v4 = s2.solve(&b, SolveLimits::new(4, 300_000, None));
                    let n4 = s2.nodes();
                    let mut s3 = Solver::new(1 << 16);
                    let v6 = s3.solve(&b, SolveLimits::new(6, 300_000, None));
                    notes.push(format!(
                        "t{turn_no} missed own VCDT {w} nodes@8 {n8} d4 {:?} {n4} d6 {:?} {}",
                        matches!(v4, Verdict::Win(_)),
                        matches!(v6, Verdict::Win(_)),
                        s3.nodes()
                    ));
                }
                if let Verdict::Win(_) = after {
                    // survivors among candidates?
                    let mut bb = b.clone();
                    let mut pairs = connect6::pairs::Pairs::new();
                    connect6::pairs::generate(&mut bb, &mut pairs, 60);
                    if let Verdict::Win(th) = before {
                        for c in th.cells() {
                            connect6::pairs::add_pairs_through(&b, me, c, 8, &mut pairs);
                        }
                    }
                    let mut surv = vec![];
                    for &(_, u) in &pairs {
                        let mut a2 = b.clone();
                        a2.play_turn(&u).unwrap();
                        if !matches!(s.solve(&a2, lim), Verdict::Win(_)) {
                            surv.push(u.to_string());
                        }
                    }
                    notes.push(format!(
                        "t{turn_no} {t} allowed VCDT; before={} survivors {}/{} {:?}",
                        matches!(before, Verdict::Win(_)),
                        surv.len(),
                        pairs.len(),
                        &surv[..surv.len().min(3)]
                    ));
                }
                if notes.len() >= 3 {
                    break;
                }
            }
            b.play_turn(&t).unwrap();
            i += n;
            turn_no += 1;
            if b.is_over() {
                break;
            }
        }
        println!(
            "{} ({} as {:?}, {} turns): {:?}",
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .chars()
                .take(22)
                .collect::<String>(),
            name,
            me,
            turn_no,
            notes
        );
    }
}
