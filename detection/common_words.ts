/**
 * Greetings, thanks and interface labels of the Latin-script languages, for texts of one to
 * three words. Statistical models guess on such texts: eld's n-grams read "Hello" as Finnish
 * and "Hola" as nothing at all, and the answer fell to whichever candidate scored at all
 * ("Hello" → es, "Hi" → fil, "Hello world" → fil), while these are what clients send most
 * often without a source language (a chat greeting, a button label).
 *
 * A text is decided here only when every one of its words is in one language's list and in no
 * other's; anything else goes on to the statistical models. A word of several languages (es and
 * en "no") is listed under each, so it decides nothing by itself; one of Indonesian and Malay
 * only ("terima kasih") is Indonesian, as the statistical split leans.
 */

const WORDS: Readonly<Record<string, string>> = {
  en: "hello hi hey world thanks thank you bye goodbye yes no ok okay please welcome good " +
    "morning afternoon evening night cheers sorry congratulations save cancel open close " +
    "delete edit settings search help home next back submit login logout sign up out in log all " +
    "password profile message",
  fr: "bonjour salut merci oui non bonsoir bonne nuit journée soirée revoir au bienvenue monde " +
    "annuler enregistrer fermer ouvrir supprimer modifier paramètres rechercher aide accueil " +
    "suivant précédent retour valider envoyer connexion déconnexion désolé félicitations coucou " +
    "allô message",
  de: "hallo danke ja nein tschüss bitte welt guten gute morgen tag abend nacht willkommen " +
    "abbrechen speichern schließen öffnen löschen bearbeiten einstellungen suchen hilfe " +
    "startseite weiter zurück senden anmelden abmelden entschuldigung servus moin in",
  es: "hola gracias sí no adiós mundo buenos buenas días tardes noches bienvenido bienvenida " +
    "cancelar guardar cerrar abrir eliminar borrar editar configuración ajustes buscar ayuda " +
    "inicio siguiente atrás enviar iniciar sesión perdón vale",
  id: "halo hai terima kasih ya tidak selamat pagi malam datang batal simpan tutup buka cari " +
    "kembali maaf dunia masuk keluar ubah pengaturan hapus beranda berikutnya kirim siang sore " +
    "unduh iya nggak oke permisi sampai jumpa lanjutkan makasih",
  ms: "halo hai terima kasih ya tidak selamat pagi malam datang batal simpan tutup buka cari " +
    "kembali maaf dunia masuk keluar ubah tetapan padam seterusnya hantar petang helo sunting " +
    "sila okey baiklah log",
  fil: "kumusta salamat oo hindi paalam magandang umaga hapon gabi maligayang pagdating " +
    "kanselahin isara buksan burahin hanapin tulong susunod bumalik ipadala mundo po opo sige " +
    "paumanhin",
};

/** Each word and the languages whose list has it. */
const LANGUAGES_OF: ReadonlyMap<string, readonly string[]> = (() => {
  const languages = new Map<string, string[]>();
  for (const [language, words] of Object.entries(WORDS)) {
    for (const word of words.split(" ")) {
      languages.set(word, [...(languages.get(word) ?? []), language]);
    }
  }
  return languages;
})();

/** A short text's language, and whether its words are as much Malay's (shared). */
export interface CommonWordsVerdict {
  language: string;
  shared: boolean;
}

/** Most words a text may have to be decided here. */
const MAX_WORDS = 3;
const WORD = /\p{L}+/gu;

/**
 * The one language all of a short text's words belong to, or undefined.
 *
 * @example
 * ```ts
 * commonWordsLanguage("Hello world!"); // { language: "en", shared: false }
 * commonWordsLanguage("No"); // undefined: en and es
 * ```
 */
export function commonWordsLanguage(text: string): CommonWordsVerdict | undefined {
  const words = text.toLowerCase().normalize("NFC").match(WORD);
  if (words === null || words.length > MAX_WORDS) return undefined;
  let candidates: readonly string[] | undefined;
  for (const word of words) {
    const languages = LANGUAGES_OF.get(word);
    if (languages === undefined) return undefined;
    candidates = candidates === undefined
      ? languages
      : candidates.filter((language) => languages.includes(language));
    if (candidates.length === 0) return undefined;
  }
  if (candidates?.length === 1) return { language: candidates[0], shared: false };
  // Words both Indonesian and Malay write: Indonesian, as the statistical split leans without
  // other evidence (by far the more widely written standard).
  if (candidates?.length === 2 && candidates.includes("id") && candidates.includes("ms")) {
    return { language: "id", shared: true };
  }
  return undefined;
}
