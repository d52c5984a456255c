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
    let mut chart = ChartBuilder::on(root)
        .caption(bars.title, ("sans-serif", 20))
        .margin(8)
        .x_label_area_size(48)
        .y_label_area_size(70)
        // Integer ranges are inclusive in plotters: `0..n - 1` is n slots.
        .build_cartesian_2d((0..n - 1).into_segmented(), 0f64..top)
        .map_err(|e| e.to_string())?;
    let label = |v: &SegmentValue<usize>| match v {
        SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
            bars.labels.get(*i).cloned().unwrap_or_default()
        }
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
        .x_labels(n.min(16))
        .y_labels(6)
        .x_label_formatter(&label)
        .y_label_formatter(&y_label)
        .x_desc(bars.x_desc)
        .y_desc(bars.y_desc)
        .label_style(("sans-serif", 15))
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
