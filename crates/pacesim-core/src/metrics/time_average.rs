//! The time average of a piecewise-constant quantity over the spans it is
//! defined, e.g. a TCP window over the life of its connections (paper A
//! Fig. 4: the distribution over flows of the average window).

use crate::sim::Time;

#[derive(Debug, Clone, Copy, Default)]
pub struct TimeAverage {
    /// The value since `since`, or None while undefined (not counted).
    value: Option<f64>,
    since: Time,
    /// Integral of the value over the counted time, value x ns.
    area: f64,
    counted: Time,
}

impl TimeAverage {
    /// From `now` on the value is `value` (None: undefined, not counted).
    pub fn set(&mut self, now: Time, value: Option<f64>) {
        if let Some(v) = self.value {
            let span = now - self.since;
            self.area += v * span as f64;
            self.counted += span;
        }
        self.value = value;
        self.since = now;
    }

    /// Forget everything before `now` (the measurement window opens).
    pub fn restart(&mut self, now: Time) {
        *self = TimeAverage { value: self.value, since: now, ..Default::default() };
    }

    /// The average up to `now`, if the value was defined for some of the time.
    pub fn mean(&self, now: Time) -> Option<f64> {
        let mut closed = *self;
        closed.set(now, None);
        (closed.counted > 0).then(|| closed.area / closed.counted as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_over_defined_time_only() {
        let mut a = TimeAverage::default();
        assert_eq!(a.mean(10), None);
        a.set(0, Some(2.0));
        a.set(10, Some(4.0)); // 2 for 10 ns
        a.set(20, None); // 4 for 10 ns
        a.set(50, Some(1.0)); // undefined for 30 ns
        assert_eq!(a.mean(60), Some((20.0 + 40.0 + 10.0) / 30.0));
        a.restart(60);
        assert_eq!(a.mean(80), Some(1.0), "the value carries over a restart");
    }
}
