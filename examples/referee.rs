//! Runs the referee without the main binary: `cargo run --example referee -- [options] A B`
//! (the same arguments as `connect6 match`).

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match connect6::referee::MatchArgs::parse(&args) {
        Ok(config) => connect6::referee::main(config),
        Err(e) => e.exit(),
    }
}
