/// A tap count known at compile time, for the specializations of `AreaResampler.reduceRowFixed`.
protocol TapCount { static var count: Int { get } }
enum OneTap: TapCount { static var count: Int { 1 } }
enum TwoTaps: TapCount { static var count: Int { 2 } }
enum ThreeTaps: TapCount { static var count: Int { 3 } }
enum FourTaps: TapCount { static var count: Int { 4 } }
enum FiveTaps: TapCount { static var count: Int { 5 } }
