//! The `arena` binary: runs [`arena::run`] on the process's arguments and exits with its code.

fn main() -> std::process::ExitCode {
    let code = arena::run(std::env::args_os(), &mut std::io::stdout().lock(), &mut std::io::stderr().lock());
    std::process::ExitCode::from(code)
}
