/**
 * Nouns the offline extractor recognises by kind: animals kept as pets and the people of a
 * person's life. Alternations for regular expressions (no groups of their own).
 */

/** A pet, singular: the referent a later "she" / "he" can stand for. */
export const PET =
  'dog|cat|pet|puppy|kitten|horse|pony|bird|fish|hamster|rabbit|bunny|guinea pig|parrot|tortoise|turtle|snake|lizard|ferret|mouse|rat|gecko|budgie';

/** Pets, singular or plural. */
export const ANIMALS =
  'dogs?|cats?|pets?|pupp(?:y|ies)|kittens?|horses?|pon(?:y|ies)|birds?|fish|hamsters?|rabbits?|bunn(?:y|ies)|guinea pigs?|parrots?|tortoises?|turtles?|snakes?|lizards?|ferrets?|mouse|mice|rats?|geckos?|budgies?';

/** The people of a person's life, by their relation to her. */
export const RELATIVES =
  'wife|husband|partner|spouse|boyfriend|girlfriend|fianc[ée]e?|sister|brother|siblings?|mom|mum|mother|dad|father|parents|son|daughter|kids?|children|child|baby|grandma|grandmother|grandpa|grandfather|grandparents|aunt|uncle|cousin|niece|nephew|family|fam|best friend|friends?|roommate|neighbou?r|mentor|in-laws|twins?';
