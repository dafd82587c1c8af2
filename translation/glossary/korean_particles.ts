/**
 * Korean writes its particles and the copula onto the word before them ("데이터베이스를",
 * "데이터베이스에서는", "데이터베이스입니다"), yet a particle is a word of its own. So in Korean a
 * term is a whole word when what follows it up to the next space is particles (DECISIONS.md,
 * "Glossaries": whole words for spaced scripts), and "데이터베이스를" uses the term
 * "데이터베이스" while "데이터베이스화" (a derived word) does not.
 *
 * The list holds the particles and copula endings of written Korean that a translation or a
 * user's text commonly attaches to a noun; up to three of them stack ("들 + 에서 + 는").
 */

const PARTICLES = [
  ...["은", "는", "이", "가", "을", "를", "의", "에", "에서", "에게", "께", "께서", "한테"],
  ...["로", "으로", "로서", "으로서", "로써", "으로써", "와", "과", "랑", "이랑", "하고"],
  ...["도", "만", "까지", "부터", "처럼", "보다", "마다", "조차", "밖에", "뿐", "만큼", "같이"],
  ...["나", "이나", "든지", "이든지", "요", "이요", "들"],
  // The copula and its common endings: "데이터베이스이다", "…입니다", "…인 경우".
  ...["이다", "다", "입니다", "이며", "이고", "인", "이에요", "예요", "였다", "이었다"],
  ...["였습니다", "이었습니다", "이라는", "라는", "이라고", "라고"],
];

const LONGEST_PARTICLE = Math.max(...PARTICLES.map((particle) => particle.length));
const PARTICLE_SET: ReadonlySet<string> = new Set(PARTICLES);
const MOST_STACKED = 3;
/** The most UTF-16 units a run of stacked particles can take. */
export const MOST_PARTICLE_UNITS = LONGEST_PARTICLE * MOST_STACKED;

function isHangul(unit: number): boolean {
  return (unit >= 0xac00 && unit <= 0xd7a3) || (unit >= 0x1100 && unit <= 0x11ff) ||
    (unit >= 0x3130 && unit <= 0x318f);
}

/** Where the run of Hangul starting at `at` ends. */
function hangulRunEnd(text: string, at: number): number {
  while (at < text.length && isHangul(text.charCodeAt(at))) at++;
  return at;
}

/**
 * True when `text` from `start` to `end` is one to three particles in a row (shortest split
 * first; the runs are a few syllables, so trying every split costs nothing).
 */
export function isParticleRun(text: string, start: number, end: number, depth = 1): boolean {
  if (start >= end || depth > MOST_STACKED) return false;
  for (let length = 1; length <= LONGEST_PARTICLE && start + length <= end; length++) {
    if (!PARTICLE_SET.has(text.slice(start, start + length))) continue;
    if (start + length === end || isParticleRun(text, start + length, end, depth + 1)) return true;
  }
  return false;
}

/**
 * Where the particles that follow a term at `end` stop (the end of the Hangul run there), or
 * undefined when that run is not particles. The caller decides whether the word ends there.
 */
export function particlesEnd(text: string, end: number): number | undefined {
  const runEnd = hangulRunEnd(text, end);
  return runEnd > end && isParticleRun(text, end, runEnd) ? runEnd : undefined;
}
