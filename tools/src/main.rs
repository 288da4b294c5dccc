//! The `arena` binary: runs [`arena::run`] on the process's arguments and exits with its code.

fn main() -> std::process::ExitCode {
    // `COMPLETE=bash arena ...`: the shell asks for completions (and exits).
    clap_complete::CompleteEnv::with_factory(arena::command).complete();
    // stderr is not locked for the whole run: a thread other than this one
    // (a progress bar, a watcher) may write to it too, one write at a time.
    let code = arena::run(std::env::args_os(), &mut std::io::stdout().lock(), &mut std::io::stderr());
    std::process::ExitCode::from(code)
}
