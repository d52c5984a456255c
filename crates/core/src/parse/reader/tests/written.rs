//! [`Record::written`] and [`RecordReader::layout`]: each format's records
//! as the input wrote them, for writing them back in the user's layout.

use super::*;

/// Every record's `(written, written_ends)`, with `keep_written`, and the
/// layout.
fn written(input: &[u8], format: InputFormat) -> (InputLayout, Vec<(String, Vec<u32>)>) {
    let options = ReadOptions {
        format,
        keep_written: true,
        ..ReadOptions::default()
    };
    let mut reader = RecordReader::with_options(input, &options).expect("in-memory input");
    let mut rec = Record::default();
    let mut out = Vec::new();
    while reader.read_record(&mut rec).unwrap() {
        let text = String::from_utf8(rec.written.clone()).unwrap();
        out.push((text, rec.written_ends.clone()));
    }
    (reader.layout().clone(), out)
}

#[test]
fn csv_fields_come_back_as_written_quotes_and_line_breaks_included() {
    let p1 = String::from_utf8(P1.to_vec()).unwrap();
    let zeros = p1.replace('.', "0");
    let rows = [
        format!("{zeros},{}", String::from_utf8(S1.to_vec()).unwrap()),
        format!("\"{p1}\",\"a, \"\"quoted\"\"\r\nnote\""),
        format!(" {zeros} ,"),
    ];
    let input = format!("quizzes,\"sol,utions\"\n{}\n", rows.join("\r\n"));
    let (layout, records) = written(input.as_bytes(), InputFormat::Auto);
    assert_eq!(
        layout,
        InputLayout::Csv {
            delimiter: b',',
            header: Some(b"quizzes,\"sol,utions\"".to_vec()),
            names: vec!["quizzes".into(), "sol,utions".into()],
        }
    );
    let texts: Vec<&str> = records.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(texts, rows.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(records[0].1, [81, 163]);
    assert_eq!(records[2].1, [83, 84]); // an empty last field ends at the end
                                        // Without the option nothing is copied.
    let (_, _, recs) = read_all(input.as_bytes(), InputFormat::Auto);
    assert_eq!(recs.len(), 3);
    let mut reader = RecordReader::new(input.as_bytes(), InputFormat::Auto).unwrap();
    let mut rec = Record::default();
    assert!(reader.read_record(&mut rec).unwrap());
    assert!(rec.written.is_empty() && rec.written_ends.is_empty());
}

#[test]
fn csv_keeps_its_delimiter_and_a_headerless_file_has_no_header() {
    let p1 = std::str::from_utf8(P1).unwrap();
    let input = format!("7\t{p1}\t\"x\ty\"\n");
    let (layout, records) = written(input.as_bytes(), InputFormat::Csv);
    let InputLayout::Csv {
        delimiter,
        header,
        names,
    } = layout
    else {
        panic!("{layout:?}")
    };
    assert_eq!((delimiter, header, names.len()), (b'\t', None, 0));
    assert_eq!(records[0].0, input.trim_end());
}

#[test]
fn lines_json_and_blocks_come_back_as_written() {
    let p1 = std::str::from_utf8(P1).unwrap();
    let lines = format!("# corpus\n  {p1}  an id\n{}\n", p1.replace('.', "0"));
    let (layout, records) = written(lines.as_bytes(), InputFormat::Auto);
    assert_eq!(layout, InputLayout::Lines);
    assert_eq!(records[0].0, format!("  {p1}  an id"));
    assert!(records[0].1.is_empty());
    assert_eq!(records[1].0, p1.replace('.', "0"));

    let json =
        format!("{{\"id\": 1, \"puzzle\":\"{p1}\"}}  \n{{\"puzzle\":\"{p1}\",\"rating\":2}}\n");
    let (layout, records) = written(json.as_bytes(), InputFormat::Auto);
    let keys = vec!["id".to_string(), "puzzle".into(), "rating".into()];
    assert_eq!(layout, InputLayout::Jsonl { keys });
    assert_eq!(records[0].0, json.lines().next().unwrap());

    let block = std::str::from_utf8(NOIP1).unwrap();
    let mut rows: Vec<&str> = block.lines().collect();
    rows.insert(3, "------+-------+------");
    let frame = "+-----+-----+-----+";
    let framed = format!("{frame}\n{}\n{frame}\n\n{block}", rows.join("\n"));
    let (layout, records) = written(framed.as_bytes(), InputFormat::Block);
    assert_eq!(layout, InputLayout::Blocks);
    assert_eq!(records.len(), 2);
    // The rows and the box line between them; not the frame around them.
    assert_eq!(records[0].0, rows.join("\n"));
    assert_eq!(records[1].0, block.trim_end());
}
