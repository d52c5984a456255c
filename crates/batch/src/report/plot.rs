//! The report's plots: bar charts drawn by `plotters` into SVG text (its
//! SVG backend only: no fonts are loaded, text is left to the viewer's
//! `sans-serif`). A chart with no data still draws its frame and says so,
//! so a page always holds one plot per distribution.

use plotters::prelude::*;

/// Drawing size in SVG user units; the page scales it to its width.
pub const WIDTH: u32 = 640;
/// Drawing height.
pub const HEIGHT: u32 = 300;

/// Bar colour (a blue that stays readable in grey when printed).
const BAR: RGBColor = RGBColor(0x2f, 0x5f, 0x98);

/// Size of the tick labels, in SVG units.
const LABEL_SIZE: u32 = 15;
/// Width of the y label area.
const Y_LABEL_AREA: u32 = 70;
/// Margin around the chart.
const MARGIN: u32 = 8;
/// Space kept between two tick labels.
const LABEL_GAP: f64 = 8.0;
/// The font size plotters writes into the SVG for a size of 1 (it scales
/// sizes from points: 15 becomes 12.1).
const FONT_SCALE: f64 = 0.806_451_6;

/// A generous width of `label` in SVG units at [`LABEL_SIZE`]: sans-serif
/// digits are at most 0.64 em (DejaVu; Liberation and Helvetica 0.56), a
/// dash 0.5 em, a letter at most 0.9 em.
fn label_width(label: &str) -> f64 {
    let em: f64 = label
        .chars()
        .map(|c| match c {
            '0'..='9' => 0.64,
            '–' | '-' => 0.5,
            '.' | ',' => 0.32,
            _ => 0.9,
        })
        .sum();
    em * f64::from(LABEL_SIZE) * FONT_SCALE
}

/// How the x labels fit under `n` bars: every `step`-th label is shown
/// (the first included), and `right` units of margin keep the last shown
/// label, centred under its bar, inside the drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelFit {
    /// Show labels `0, step, 2 step, ...`.
    pub step: usize,
    /// Right margin.
    pub right: u32,
}

/// Fits `labels` under their bars: the fewest skipped labels such that no
/// two shown ones overlap, and a right margin for the last.
pub fn fit_labels(labels: &[String]) -> LabelFit {
    let n = labels.len().max(1);
    let widest = labels.iter().map(|l| label_width(l)).fold(0.0, f64::max);
    let plot = f64::from(WIDTH - 2 * MARGIN - Y_LABEL_AREA);
    // Twice: the right margin taken narrows the plot the bars share.
    let mut right = MARGIN;
    let mut step = 1;
    for _ in 0..2 {
        let slot = (plot - f64::from(right - MARGIN)) / n as f64;
        step = ((widest + LABEL_GAP) / slot).ceil().max(1.0) as usize;
        let last_shown = (n - 1) / step * step;
        let overhang = widest / 2.0 - slot * ((n - last_shown) as f64 - 0.5);
        right = MARGIN.max(overhang.ceil() as u32 + 2);
    }
    LabelFit { step, right }
}

/// One bar chart: a label and a value per bar.
#[derive(Debug)]
pub struct Bars<'a> {
    /// Title above the plot.
    pub title: &'a str,
    /// What the bars are (x axis).
    pub x_desc: &'a str,
    /// What their height is (y axis).
    pub y_desc: &'a str,
    /// One label per bar.
    pub labels: Vec<String>,
    /// One value per bar.
    pub values: Vec<f64>,
    /// Values are shares in 0..=1, shown as percentages on a fixed axis.
    pub percent: bool,
}

/// Draws `bars` as an SVG document (`<svg ...>...</svg>`).
pub fn svg(bars: &Bars<'_>) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        // Drawing into a String cannot fail but on a plotters bug; a
        // half-drawn plot is still a valid SVG document.
        let _ = draw(&root, bars);
        let _ = root.present();
    }
    out
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn draw(root: &Area<'_>, bars: &Bars<'_>) -> Result<(), Box<dyn std::error::Error + 'static>> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let n = bars.values.len().max(1);
    let max = bars.values.iter().copied().fold(0.0f64, f64::max);
    let top = if bars.percent {
        1.0
    } else {
        // Counts: whole-number ticks even for a handful of records.
        (max * 1.08).max(5.0)
    };
    let fit = fit_labels(&bars.labels);
    let mut chart = ChartBuilder::on(root)
        .caption(bars.title, ("sans-serif", 20))
        .margin(MARGIN)
        .margin_right(fit.right)
        .x_label_area_size(48)
        .y_label_area_size(Y_LABEL_AREA)
        // Integer ranges are inclusive in plotters: `0..n - 1` is n slots.
        .build_cartesian_2d((0..n - 1).into_segmented(), 0f64..top)
        .map_err(|e| e.to_string())?;
    let label = |v: &SegmentValue<usize>| match v {
        SegmentValue::CenterOf(i) | SegmentValue::Exact(i) if i % fit.step == 0 => {
            bars.labels.get(*i).cloned().unwrap_or_default()
        }
        SegmentValue::CenterOf(_) | SegmentValue::Exact(_) => String::new(),
        SegmentValue::Last => String::new(),
    };
    let percent = bars.percent;
    let y_label = move |y: &f64| {
        if percent {
            format!("{:.0}%", y * 100.0)
        } else if *y >= 1e6 {
            format!("{:.1}M", y / 1e6)
        } else if *y >= 1e4 {
            format!("{:.0}k", y / 1e3)
        } else if y.fract() == 0.0 {
            format!("{y:.0}")
        } else {
            format!("{y:.1}")
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .y_labels(6)
        .x_label_formatter(&label)
        .y_label_formatter(&y_label)
        .x_desc(bars.x_desc)
        .y_desc(bars.y_desc)
        .label_style(("sans-serif", LABEL_SIZE))
        .axis_desc_style(("sans-serif", 15))
        .bold_line_style(RGBColor(0xd8, 0xd8, 0xd8))
        .light_line_style(RGBColor(0xf4, 0xf4, 0xf4))
        .draw()
        .map_err(|e| e.to_string())?;
    if bars.values.is_empty() {
        let (w, h) = root.dim_in_pixel();
        root.draw(&Text::new(
            "no records",
            (w as i32 / 2 - 36, h as i32 / 2),
            ("sans-serif", 16),
        ))
        .map_err(|e| e.to_string())?;
        return Ok(());
    }
    chart
        .draw_series(
            Histogram::vertical(&chart)
                .style(BAR.filled())
                .margin(if n > 40 { 1 } else { 3 })
                .data(bars.values.iter().enumerate().map(|(i, &v)| (i, v))),
        )
        .map_err(|e| e.to_string())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_one_svg_with_a_bar_per_value_and_labels() {
        let bars = Bars {
            title: "Givens",
            x_desc: "givens",
            y_desc: "records",
            labels: vec!["22".into(), "23".into(), "24".into()],
            values: vec![3.0, 0.0, 7.0],
            percent: false,
        };
        let s = svg(&bars);
        assert!(s.starts_with("<svg"), "{}", &s[..40]);
        assert_eq!(s.matches("<svg").count(), 1);
        assert!(s.contains("viewBox=\"0 0 640 300\""));
        assert!(s.contains("\nGivens\n") && s.contains("\n24\n"), "{s}");
        // The two non-empty bars are filled rectangles of the bar colour.
        assert!(s.matches("fill=\"#2F5F98\"").count() >= 2, "{s}");
    }

    /// Nineteen score ranges (the finding: they overlapped and the last
    /// was cut): every other or third label, none overlapping, and the
    /// last shown inside the drawing; a few short labels all shown.
    #[test]
    fn x_labels_fit_without_overlap_or_clipping() {
        let scores: Vec<String> = (0..19)
            .map(|i| format!("{}–{}", 2826 + 3 * i, 2828 + 3 * i))
            .collect();
        let fit = fit_labels(&scores);
        assert!(fit.step >= 2, "{fit:?}");
        let plot = f64::from(WIDTH - MARGIN - fit.right - Y_LABEL_AREA);
        let slot = plot / 19.0;
        let widest = label_width(&scores[0]);
        assert!(slot * fit.step as f64 >= widest + LABEL_GAP, "{fit:?}");
        let last = (18 / fit.step * fit.step) as f64;
        let right_edge = f64::from(MARGIN + Y_LABEL_AREA) + slot * (last + 0.5) + widest / 2.0;
        assert!(right_edge <= f64::from(WIDTH), "{right_edge} {fit:?}");
        let few: Vec<String> = (17..=28).map(|g| g.to_string()).collect();
        assert_eq!(fit_labels(&few).step, 1);
        // Drawn: only the chosen labels appear.
        let s = svg(&Bars {
            title: "Best scores",
            x_desc: "best score",
            y_desc: "puzzles",
            labels: scores.clone(),
            values: vec![1.0; 19],
            percent: false,
        });
        for (i, label) in scores.iter().enumerate() {
            assert_eq!(
                s.contains(&format!("\n{label}\n")),
                i % fit.step == 0,
                "{label}"
            );
        }
    }

    #[test]
    fn an_empty_chart_says_so() {
        let bars = Bars {
            title: "Guesses",
            x_desc: "guesses",
            y_desc: "records",
            labels: Vec::new(),
            values: Vec::new(),
            percent: true,
        };
        let s = svg(&bars);
        assert!(s.contains("no records"), "{s}");
        assert!(!s.contains("NaN") && !s.contains("inf"), "{s}");
    }
}
