//! `failopen report`, `diff` and `merge`.

use crate::cli::{DiffArgs, FormatArg, MergeArgs, ReportArgs};

pub fn report(args: ReportArgs) -> anyhow::Result<i32> {
    use failopen::report::Exporter;
    let mut rows = Vec::new();
    for f in &args.files {
        rows.extend(failopen::record::read_rows(f)?);
    }
    let text = match args.format {
        FormatArg::Md => failopen::report::article::ArticleTable.render(&rows)?,
        other => anyhow::bail!("format {other:?} is not implemented yet"),
    };
    match args.out {
        Some(path) => std::fs::write(&path, text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(0)
}

pub fn diff(_args: DiffArgs) -> anyhow::Result<i32> {
    anyhow::bail!("diff is not implemented yet")
}

pub fn merge(_args: MergeArgs) -> anyhow::Result<i32> {
    anyhow::bail!("merge is not implemented yet")
}
