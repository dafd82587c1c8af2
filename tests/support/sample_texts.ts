/**
 * Sentences the detector reads with confidence, shared by the service tests.
 */

/** A French sentence (detected as fr). */
export const FRENCH = "Bonjour, je voudrais réserver une chambre pour deux nuits.";
/** A German sentence (detected as de). */
export const GERMAN = "Guten Morgen, wie geht es dir heute? Das Wetter ist schön.";
/** An English sentence (detected as en: passes through when the target is en). */
export const ENGLISH = "The weather is lovely today and we are going to the beach.";
