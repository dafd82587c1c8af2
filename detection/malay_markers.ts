/**
 * Hand-written orthographic and lexical differences between Indonesian and Malaysian Malay.
 *
 * The two standards share most of their vocabulary; these lists hold the words that only one of
 * them uses in ordinary prose (spelling pairs such as karena/kerana, uang/wang, pikir/fikir, and
 * vocabulary such as pemerintah/kerajaan, mobil/kereta), plus suffix patterns (-itas/-iti,
 * -si/-syen). A generated lexicon (malay_lexicon.ts) adds the long tail.
 */
import { malayLexicon } from "./malay_lexicon.ts";

// Each list holds words typical of one standard and rare or absent in the other. "Strong" words
// are spelling pairs of one word (karena/kerana) and count double.
const INDONESIAN_STRONG = `
karena uang bisa bahwa nggak enggak gimana banget kemarin besok ilmuwan peneliti penelitian
agustus desember maret juli juni kamis jumat persen miliar mobil sepeda pikir pikiran berpikir
paham sebagian bagian menemukan ditemukan olahraga wisatawan pariwisata kecelakaan dokter obat
keuangan pria parlemen pengadilan nomor proyek televisi stasiun kampanye kendaraan transportasi
bandara taksi musik yaitu kesehatan sehat pasien istri coba mencoba dicoba berbagai dikenal
memiliki dimiliki membutuhkan dibutuhkan kebutuhan paspor salju listrik pohon sapi kecepatan
memengaruhi memperhatikan prancis rata-rata usulan mengandung narapidana koran sekretaris
jepang tiongkok spanyol italia eropa inggris swedia norwegia finlandia polandia islandia belgia
irlandia skotlandia selandia brasil meksiko mantan serikat mulai berarti arti hongaria
berbeda beda perbedaan membedakan resmi kualitas kuantitas aktivitas komunitas identitas
realitas mayoritas minoritas matematika fisika kasus gubernur stadion tersangka terdakwa kabar
napas pribadi pabrik danau populer merek karyawan investasi investor perunggu kejuaraan unduh
unggah mengonfirmasi membantah mendirikan didirikan pendirian bergabung mengusulkan diusulkan
klub
kursi jawaban jembatan terowongan tanggal jadwal kalender dekade partai akun kanker utang
rusak kerusakan merusak lisensi pensiun ujung memulai dimulai mengurangi dikurangi majelis
pembaruan memperbarui justru berbasis
`;
const INDONESIAN_WORDS = `
tapi aja sih dong kok cuma bikin pemerintah polisi universitas senin kantor kota bensin sepatu
kamar handuk ponsel telepon gratis perbatasan lokal setempat mengidentifikasi badai topan korban
pertandingan tim pelatih medali tingkat turis liburan kacamata hewan ukuran infeksi ayah bapak
internasional pemilu pemilihan pengacara tentara gedung kapan informasi studi dosen pajak
asuransi biaya bisnis departemen toko film museum pernyataan kembali para harus saja meskipun
sedangkan kalian menit detik mahasiswa siswa apotek provinsi kabupaten diperkirakan
dibandingkan mengungkapkan pelayanan layanan rekan saran rencana situs daring pesan sopir
pengemudi berangkat ledakan kemacetan dingin energi tampak terlihat terkait selanjutnya
dampak pengamat mengamati sore terjadi fasilitas laboratorium ilmiah oposisi administrasi
konstitusi juru khawatir celana tetangga gampang statistik persentase beserta apapun macan
pemungutan amplop hama gugatan limbah balapan putri
mau bilang sulit jaringan sandi modern jendela atap piring sendok lemari kulkas truk supir
macet parkir jaksa kejaksaan kepolisian cowok cewek riset kuliah bupati walikota kecamatan
kelurahan lansia publik dinas pasokan lantaran ketimbang soalnya makanya biar gini cuman doang
mengunjungi kunjungan pengunjung berkunjung menyetir mengemudi perawatan pengobatan senantiasa
formulir silakan kalimat pertanyaan metode konferensi kebijakan perusahaan tantangan konsumen
keterampilan produsen manajer manajemen direktur insinyur mengirim dikirim kiriman berwenang
investigasi kejahatan penjahat perampokan menyelenggarakan diselenggarakan penyelenggara
dimakamkan perserikatan tas kartu jelek bioskop kelinci kakek paman tante haus capek sebentar
terlambat meledak terluka semangka surel menikah kawin berhasil keberhasilan sukses kesuksesan
usai seusai sekaligus udah kayak gitu gue deh nih ngga gak emang pengen ngomong
ayo butuh ketemu
`;
const MALAY_STRONG = `
kerana wang bahawa sahaja mahu baharu cuba mencuba dicuba iaitu saintis penyelidik kajian polis
universiti ogos disember mac julai jun khamis jumaat isnin ahad peratus bilion basikal fikir
fikiran berfikir faham sebahagian bahagian pelancong pelancongan kemalangan haiwan doktor ubat
kewangan lelaki antarabangsa parlimen nombor projek televisyen stesen kempen kenderaan
pengangkutan teksi muzik muzium filem kesihatan sihat pesakit isteri pelbagai dikenali
mempunyai keperluan pasport salji elektrik pokok lembu kelajuan mempengaruhi memerhatikan
purata cadangan mengandungi banduan akhbar setiausaha pengerusi jurucakap perlembagaan
jepun sepanyol itali eropah inggeris sweden norway finland poland iceland belgium ireland
scotland zealand brazil mexico mula bererti erti
berbeza beza perbezaan membezakan rasmi kualiti kuantiti aktiviti komuniti identiti realiti
majoriti minoriti matematik fizik kes gabenor stadium suspek tertuduh khabar nafas peribadi
kilang tasik penat dahaga moden jenama kakitangan majikan pelaburan pelabur gangsa kejohanan
rangkaian perkakasan belanjawan mengesahkan disahkan menafikan menubuhkan ditubuhkan penubuhan
menyertai disertai mencadangkan dicadangkan kelab bermula
kerusi jawapan jambatan terowong tarikh jadual kalendar dekad parti akaun kanser hutang rosak
kerosakan merosakkan lesen pencen hujung memulakan dimulakan mengurangkan dikurangkan majlis
pembaharuan telefon berasaskan
`;
const MALAY_WORDS = `
boleh semalam esok kerajaan bandar petrol kasut bilik tuala bimbit percuma sempadan
tempatan mendapati ditemui mengenal ribut taufan sukan perlawanan pasukan jurulatih pingat
peringkat percutian saiz jangkitan kanak-kanak bapa kebangsaan parlimen mahkamah peguam tentera
bangunan apabila maklumat pensyarah cukai insurans kos bajet komisyen syarikat perniagaan kedai
ahli kenyataan semula dahulu manakala bagaimanapun justeru sebarang ramai minit memberitahu
mengikut berbanding dijangka dijangkakan pelajar hospital negeri ialah beliau pula amat selepas
semasa menerusi memandangkan kerap kerapkali sesetengah terutamanya amnya berhampiran jiran
rakan jualan membeli-belah sekiranya awam perkhidmatan kemudahan perubatan jururawat makmal
saintifik perisian rancangan naib timbalan pembangkang pentadbiran bomba letupan kesesakan
pemandu memandu berlepas bandaraya sejuk ais teruk seronok bimbang risau bayaran
menganggarkan dianggarkan bilangan perangkaan sebilangan seterusnya sememangnya wujud
kewujudan berlaku kesan pemerhati nampak didapati digelar dipanggil umpamanya berkenaan
berkaitan berhubung sesiapa apa-apa mana-mana tiada betul petang terkini lepas bekas laluan
berserta undi pengundi mengundi sampul saman fesyen perlumbaan puteri
sukar popular budak malah daripada tingkap bumbung seluar pinggan sudu almari lori bas
pendakwa perbicaraan peperiksaan ijazah cikgu emak persendirian bekalan membabitkan terbabit
melawat lawatan pelawat bersiar-siar bercakap pembedahan rawatan kecederaan sentiasa sedemikian
sebegini cawan stokin lebuh tandas askar kastam imigresen motosikal
borang sila perkataan soalan kaedah persidangan cabaran kemahiran pengurus pengurusan pengarah
jurutera juruterbang menghantar dihantar berkuasa siasatan menyiasat disiasat jenayah penjenayah
rompakan menganjurkan dianjurkan anjuran penganjur dikebumikan pertubuhan beg kad pawagam arnab
kelabu katil jom tengok encik mesyuarat matlamat tempoh tempahan berkongsi mengesan
dikesan terjejas menjejaskan menggalakkan meletup terhempas tercedera enjin imej kolej
jawatan jawatankuasa sekejap kemaskini dikemaskini perkara pasaran berjaya kejayaan johan
seramai malahan susulan beli-belah
awak nak je kat korang cakap sikit takde
`;
// Two-word phrases, matched on adjacent words.
const INDONESIAN_PHRASES = [
  "rumah sakit",
  "kereta api",
  "orang tua",
  "juru bicara",
  "saat ini",
  "akhir pekan",
  "luar negeri",
  "lalu lintas",
  "kamar mandi",
  "merah muda",
  "tempat tidur",
  "sepeda motor",
  "sekolah dasar",
];
const MALAY_PHRASES = [
  "pilihan raya",
  "lapangan terbang",
  "kapal terbang",
  "ibu bapa",
  "jalan raya",
  "hujung minggu",
  "luar negara",
  "warga emas",
  "orang ramai",
  "peti sejuk",
  "bilik air",
  "merah jambu",
  "kata laluan",
  "muat turun",
  "muat naik",
  "sekolah rendah",
];

function wordWeights(strong: string, normal: string): ReadonlyMap<string, number> {
  const weights = new Map<string, number>();
  for (const word of normal.split(/\s+/)) if (word) weights.set(word, 1);
  for (const word of strong.split(/\s+/)) if (word) weights.set(word, 2);
  return weights;
}

const indonesianWords = wordWeights(INDONESIAN_STRONG, INDONESIAN_WORDS);
const malayWords = wordWeights(MALAY_STRONG, MALAY_WORDS);
const indonesianPhrases = new Set(INDONESIAN_PHRASES);
const malayPhrases = new Set(MALAY_PHRASES);

// Loanword endings: -itas (id) / -iti (ms) as in universitas/universiti, -si (id) / -syen (ms)
// as in televisi/televisyen. Listed words are looked up first, so "peneliti" stays Indonesian.
const INDONESIAN_SUFFIX = /.{3}itas$/;
const MALAY_SUFFIX = /.{3}(?:iti|syen)$/;

// Number and pronoun conventions: Indonesian writes 1.000 and 9,6 and capitalises "Anda";
// Malaysian Malay writes 1,000 and 9.6 and keeps "anda" lower-case.
// Times (pukul 23.35) use a dot in both, so a decimal counts only with a single digit after it.
const INDONESIAN_NUMBER = /\d\.\d{3}(?![\d.])|\d,\d(?![\d,])/g;
const MALAY_NUMBER = /\d,\d{3}(?![\d,])|(?<![\d.:])\d+\.\d(?![\d.])/g;
const INDONESIAN_ANDA = /\bAnda\b/g;
const MALAY_ANDA = /\banda\b/g;

function countMatches(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** Weighted evidence for Indonesian and for Malay in one text. */
export interface MalayEvidence {
  readonly indonesian: number;
  readonly malay: number;
}

/**
 * Weighs Indonesian-only and Malay-only words, phrases and loanword endings in `text`, plus one
 * for each word of the generated lexicon ({@link malayLexicon}).
 *
 * @example
 * countMalayEvidence("saya tidak tahu kerana wang").malay; // 4
 */
export function countMalayEvidence(text: string): MalayEvidence {
  let indonesian = 2 * countMatches(text, INDONESIAN_NUMBER) + countMatches(text, INDONESIAN_ANDA);
  let malay = 2 * countMatches(text, MALAY_NUMBER) + countMatches(text, MALAY_ANDA);
  const lexicon = malayLexicon();
  let previous = "";
  for (const word of text.toLowerCase().split(/[^\p{L}-]+/u)) {
    if (word.length === 0) continue;
    if (lexicon.indonesianOnly.has(word)) indonesian++;
    else if (lexicon.malayOnly.has(word)) malay++;
    const phrase = `${previous} ${word}`;
    previous = word;
    if (indonesianPhrases.has(phrase)) indonesian += 2;
    else if (malayPhrases.has(phrase)) malay += 2;
    const id = indonesianWords.get(word) ?? 0;
    const ms = malayWords.get(word) ?? 0;
    if (id > 0 || ms > 0) {
      indonesian += id;
      malay += ms;
    } else if (INDONESIAN_SUFFIX.test(word)) indonesian++;
    else if (MALAY_SUFFIX.test(word)) malay++;
  }
  return { indonesian, malay };
}
