//! determinant() and inverse() expand into cofactor arithmetic in the front end; the corpus
//! test holds the simulator to the interpreter, and this checks the interpreter's results
//! against the definitions on the host: M * inverse(M) is the identity and the determinant is
//! the f64 one, both to f32 rounding.

mod common;

use ferrum_compiler::interp;
use ferrum_compiler::ir::Stage;

fn det(m: &[Vec<f64>]) -> f64 {
    if m.len() == 1 {
        return m[0][0];
    }
    (0..m.len())
        .map(|r| {
            let minor: Vec<Vec<f64>> = m[1..]
                .iter()
                .map(|c| c.iter().enumerate().filter(|&(k, _)| k != r).map(|(_, &x)| x).collect())
                .collect();
            let s = if r % 2 == 0 { 1.0 } else { -1.0 };
            s * m[0][r] * det(&minor)
        })
        .sum()
}

#[test]
fn inverse_and_determinant_follow_their_definitions() {
    let mut case = common::load_case(&common::corpus_dir().join("f16_matrix_inverse.comp"));
    let ir =
        ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    let input: Vec<f32> = (0..64).map(|k| common::f32_at(&case.res.buffers[0].data, k)).collect();
    interp::run(&ir, case.groups, &mut case.res).unwrap();
    let out: Vec<f32> = (0..512).map(|k| common::f32_at(&case.res.buffers[1].data, k)).collect();
    let x = |k: usize| f64::from(input[k & 63]);
    for i in 0..16usize {
        let a = [x(i), x(i + 3), x(i + 7), x(i + 11)];
        let b = [x(i + 16), x(i + 32), x(i + 48), x(i + 5)];
        let m = vec![
            vec![a[0] + 3.0, a[1], a[2], a[3]],
            vec![b[0], b[1] + 3.0, b[2], b[3]],
            vec![a[3], a[2], a[1] + 3.0, a[0]],
            vec![b[1], b[0], b[3], b[2] + 3.0],
        ];
        let base = i * 32;
        let d = det(&m);
        let got = f64::from(out[base]);
        assert!((got - d).abs() <= 1e-5 * d.abs().max(1.0), "lane {i}: det {got} want {d}");
        // (M * inverse)[c][r] = sum_k M[k][r] * inv[c][k]
        let inv = |c: usize, r: usize| f64::from(out[base + 1 + c * 4 + r]);
        for (c, r) in (0..16).map(|q| (q / 4, q % 4)) {
            let p: f64 = m.iter().enumerate().map(|(k, col)| col[r] * inv(c, k)).sum();
            let want = if c == r { 1.0 } else { 0.0 };
            assert!((p - want).abs() < 1e-4, "lane {i}: (M * inverse)[{c}][{r}] = {p}");
        }
        let m3: Vec<Vec<f64>> = m[..3].iter().map(|c| c[..3].to_vec()).collect();
        let d3 = det(&m3);
        let got3 = f64::from(out[base + 17]);
        assert!((got3 - d3).abs() <= 1e-5 * d3.abs().max(1.0), "lane {i}: det3 {got3} want {d3}");
        let d2 = a[0] * b[1] - b[0] * a[1];
        assert!((f64::from(out[base + 19]) - d2).abs() <= 1e-5 * d2.abs().max(1.0), "lane {i}");
        // inverse(mat2)[0].y + 2 * inverse(mat2)[1].x = (-a1 - 2 b0) / det
        let want = (-a[1] - 2.0 * b[0]) / d2;
        let got = f64::from(out[base + 20]);
        assert!((got - want).abs() <= 1e-4 * want.abs().max(1.0), "lane {i}: {got} want {want}");
    }
}
