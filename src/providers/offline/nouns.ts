/**
 * Nouns the offline extractor recognises by kind: animals kept as pets and the people of a
 * person's life. Alternations for regular expressions (no groups of their own).
 */

/** Common breeds a pet is named by instead of its kind ("my two beagles"), singular; each takes an -s plural. */
const BREEDS =
  'labrador|retriever|beagle|poodle|bulldog|terrier|spaniel|husky|corgi|dachshund|chihuahua|pug|collie|greyhound|whippet|schnauzer|rottweiler|doberman|pomeranian|dalmatian|labradoodle|cockapoo|siamese|tabby|ragdoll|maine coon';

/** A pet, singular: the referent a later "she" / "he" can stand for. */
export const PET = `dog|cat|pet|puppy|kitten|horse|pony|bird|fish|hamster|rabbit|bunny|guinea pig|parrot|tortoise|turtle|snake|lizard|ferret|mouse|rat|gecko|budgie|${BREEDS}`;

/** Pets, singular or plural. */
export const ANIMALS = `dogs?|cats?|pets?|pupp(?:y|ies)|kittens?|horses?|pon(?:y|ies)|birds?|fish|hamsters?|rabbits?|bunn(?:y|ies)|guinea pigs?|parrots?|tortoises?|turtles?|snakes?|lizards?|ferrets?|mouse|mice|rats?|geckos?|budgies?|(?:${BREEDS})s?`;

/** The people of a person's life, by their relation to her. */
export const RELATIVES =
  'wife|husband|partner|spouse|boyfriend|girlfriend|fianc[ée]e?|sister|brother|siblings?|mom|mum|mother|dad|father|parents|son|daughter|kids?|children|child|baby|grandma|grandmother|grandpa|grandfather|grandparents|aunt|uncle|cousin|niece|nephew|family|fam|best friend|friends?|roommate|neighbou?r|mentor|in-laws|twins?';

/** A person of someone's life, singular, by the pronoun that stands for them: "she", "he", or either. */
export const FEMALE = 'sister|mother|mom|mum|wife|girlfriend|daughter|niece|aunt|grandma|grandmother|fiancee';
export const MALE = 'brother|father|dad|husband|boyfriend|son|nephew|uncle|grandpa|grandfather|fiance';
export const EITHER =
  'partner|friend|best friend|coworker|co-worker|colleague|boss|manager|neighbou?r|roommate|cousin|teacher|doctor|therapist|coach|landlord|landlady|mentor|kid|child|baby|spouse';
